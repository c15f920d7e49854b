package harness

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/lmeval/lmeval/chat"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// chatTemplate returns the function the task layer renders chat prompts
// with: the model's own renderer (ChatTemplater) for the default template,
// else its Jinja template rendered as lm-eval's HF backend renders it
// (chat.Template.Apply). vars are the chat_template_args.
func chatTemplate(lm model.LM, name string, vars map[string]any) (task.ChatTemplate, error) {
	if ct, ok := model.As[model.ChatTemplater](lm); ok && name == "" {
		return ct.ApplyChatTemplate, nil
	}
	src, ok := model.As[model.ChatTemplateSource](lm)
	if !ok {
		return nil, errors.New("the model has no chat template")
	}
	text, err := src.ChatTemplate(name)
	if err != nil {
		return nil, err
	}
	tmpl, err := chat.Compile(text.Source, text.Tokens, chat.Options{Vars: vars})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", text.Origin, err)
	}
	var warn sync.Once
	return func(msgs []model.ChatMessage, addGenerationPrompt bool) (string, error) {
		out, fellBack, err := tmpl.Apply(msgs, addGenerationPrompt)
		if fellBack {
			warn.Do(func() {
				slog.Warn("Failed to apply chat template. removing the system role in chat history.", "template", text.Origin)
			})
		}
		return out, err
	}, nil
}
