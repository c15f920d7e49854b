package harness

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/jinja"
)

// chatTemplate returns the function the task layer renders chat prompts
// with: the model's own renderer (ChatTemplater) for the default template,
// else its Jinja template rendered here.
func chatTemplate(lm model.LM, name string, vars map[string]any) (task.ChatTemplate, error) {
	if ct, ok := model.As[model.ChatTemplater](lm); ok && name == "" {
		return ct.ApplyChatTemplate, nil
	}
	src, ok := model.As[model.ChatTemplateSource](lm)
	if !ok {
		return nil, errors.New("the model has no chat template")
	}
	tmpl, bos, eos, ok := src.ChatTemplate(name)
	if !ok {
		if name != "" {
			return nil, fmt.Errorf("the model has no chat template named %q", name)
		}
		return nil, errors.New("the model has no chat template (tokenizer.chat_template)")
	}
	return NewChatTemplate(tmpl, bos, eos, vars)
}

// NewChatTemplate compiles a Hugging Face chat template. The returned
// function renders messages as transformers' apply_chat_template(messages,
// tokenize=False, add_generation_prompt=..., continue_final_message=not
// add_generation_prompt) does, with bos_token, eos_token and
// raise_exception defined. vars are extra template variables
// (apply_chat_template's **kwargs: lm-eval's chat_template_args and
// enable_thinking); as in transformers they may override bos_token and
// eos_token, not the messages or add_generation_prompt.
func NewChatTemplate(tmpl, bos, eos string, vars ...map[string]any) (task.ChatTemplate, error) {
	env := jinja.ChatTemplates()
	if err := env.Compile(tmpl); err != nil {
		return nil, fmt.Errorf("chat template: %w", err)
	}
	return func(msgs []model.ChatMessage, addGenerationPrompt bool) (string, error) {
		list := make([]any, len(msgs))
		for i, m := range msgs {
			list[i] = map[string]any{"role": m.Role, "content": m.Content}
		}
		ctx := map[string]any{"bos_token": bos, "eos_token": eos}
		for _, v := range vars {
			for k, x := range v {
				ctx[k] = x
			}
		}
		ctx["messages"], ctx["add_generation_prompt"] = list, addGenerationPrompt
		out, err := env.Render(tmpl, ctx)
		if err != nil {
			return "", err
		}
		if addGenerationPrompt || len(msgs) == 0 {
			return out, nil
		}
		// continue_final_message: cut what the template adds after the
		// last message, so the model continues it.
		last := msgs[len(msgs)-1].Content
		stripped := strings.TrimSpace(last)
		at := strings.LastIndex(out, stripped)
		if at < 0 {
			return "", errors.New("chat template: the final message does not appear in the rendered chat, so it cannot be continued")
		}
		n := len(strings.TrimLeftFunc(last, unicode.IsSpace))
		if end := at + n; end <= len(out) && out[at:end] == last {
			return out[:end], nil
		}
		return out[:at+len(stripped)], nil
	}, nil
}
