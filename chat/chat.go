// Package chat renders chat templates exactly as Hugging Face transformers'
// tokenizer.apply_chat_template(conversation, tokenize=False, ...) does,
// and as lm-eval's HF backend calls it (HFLM.apply_chat_template) for
// --apply_chat_template: the harness builds prompts with it, and lmeval
// serve renders chat completions with it.
//
// A Template is compiled once from the Jinja source and the tokenizer's
// special tokens. Render is transformers' apply_chat_template at the
// version lm-eval's hf extra installs (transformers 5.25): the
// environment of utils/chat_template_utils.py (ImmutableSandboxedEnvironment
// with trim_blocks, lstrip_blocks, loopcontrols and the {% generation %}
// tag; raise_exception, strftime_now, tojson with its arguments), the
// special tokens and the caller's variables, tools and documents as None,
// and continue_final_message's cut. Apply is lm-eval's HFLM wrapper: it
// continues the final message when no generation prompt is asked for, and
// when the template raises a TemplateError it tries again without the
// system messages.
//
// The corpus test (corpus_test.go) replays transformers' own renderings of
// the real templates in testdata/templates (testdata/vectors, made by
// scripts/chattemplates/gen_vectors.py).
package chat

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/jinja"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Message is one turn of a conversation.
type Message = model.ChatMessage

// SpecialTokens are a tokenizer's named special tokens (model.SpecialTokens),
// which transformers passes to every chat template as bos_token,
// eos_token, unk_token, sep_token, pad_token, cls_token and mask_token.
type SpecialTokens = model.SpecialTokens

// Options configure a Template.
type Options struct {
	// Vars are extra template variables: apply_chat_template's **kwargs
	// (lm-eval's chat_template_args, enable_thinking). As in transformers
	// they override the special tokens.
	Vars map[string]any
	// Now is the clock strftime_now reads; nil is time.Now. Tests freeze it.
	Now func() time.Time
}

// reserved are apply_chat_template's own parameters and the variables it
// passes itself: a template variable of one of these names would not reach
// the template in transformers (or would fail with "got multiple values").
var reserved = []string{
	"conversation", "conversations", "messages", "tools", "documents", "chat_template",
	"add_generation_prompt", "continue_final_message", "tokenize", "sanitize_control_tokens",
	"padding", "truncation", "max_length", "return_tensors", "return_dict",
	"return_assistant_tokens_mask", "tokenizer_kwargs",
}

// A Template is a compiled chat template. It is safe for concurrent use.
type Template struct {
	src    string
	env    *jinja.Env
	vars   map[string]any // special tokens, then Options.Vars
	now    func() time.Time
	hasKey bool // the source mentions "content" (continue_final_message needs it)
}

// Compile compiles a chat template; syntax errors are reported here, as
// transformers reports them when it first compiles the template.
func Compile(src string, tokens SpecialTokens, opts Options) (*Template, error) {
	for _, k := range reserved {
		if _, ok := opts.Vars[k]; ok {
			return nil, fmt.Errorf("chat template variable %q is one of apply_chat_template's own arguments", k)
		}
	}
	t := &Template{src: src, env: env(), now: opts.Now, hasKey: strings.Contains(src, "content")}
	if t.now == nil {
		t.now = time.Now
	}
	if err := t.env.Compile(src); err != nil {
		return nil, &TemplateError{Err: err}
	}
	t.vars = map[string]any{}
	for _, kv := range tokens.Map() {
		t.vars[kv[0]] = kv[1]
	}
	for k, v := range opts.Vars {
		t.vars[k] = v
	}
	return t, nil
}

// continueTag is what transformers appends to the message it continues,
// to find where that message ends in the rendered chat.
const continueTag = "CONTINUE_FINAL_MESSAGE_TAG "

// Render renders msgs as transformers' apply_chat_template(msgs,
// tokenize=False, add_generation_prompt=addGenerationPrompt,
// continue_final_message=continueFinal) does (transformers 5.25,
// tokenization_utils_base.py and utils/chat_template_utils.py
// render_jinja_template). Errors are a *TemplateError where jinja2 raises
// a TemplateError, else a *PythonError.
func (t *Template) Render(msgs []Message, addGenerationPrompt, continueFinal bool) (string, error) {
	if len(msgs) == 0 {
		return "", valueError("Cannot apply chat template to an empty conversation. Provide at least one message.")
	}
	if continueFinal && addGenerationPrompt {
		return "", valueError("continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you want the model to continue the final message, and add_generation_prompt when you want to add a header that will prompt it to start a new assistant message instead.")
	}
	list := make([]any, len(msgs))
	for i, m := range msgs {
		list[i] = map[string]any{"role": m.Role, "content": m.Content}
	}
	final := msgs[len(msgs)-1].Content
	if continueFinal {
		if !t.hasKey {
			return "", valueError(`continue_final_message is set to "content" but this is not an accepted field in the chat_template`)
		}
		list[len(list)-1].(map[string]any)["content"] = final + continueTag
	}
	vars := make(map[string]any, len(t.vars)+6)
	vars["strftime_now"] = t.strftimeNow
	for k, v := range t.vars {
		vars[k] = v
	}
	vars["messages"], vars["tools"], vars["documents"] = list, nil, nil
	vars["add_generation_prompt"] = addGenerationPrompt
	out, err := t.env.RenderColumns(t.src, vars, messageOrder)
	if err != nil {
		return "", classify(err)
	}
	if !continueFinal {
		return out, nil
	}
	if !strings.Contains(out, pyre.Strip(final)) || !strings.Contains(out, strings.TrimSpace(continueTag)) {
		return "", valueError("continue_final_message is set but the final message does not appear in the chat after applying the chat template! This can happen if the chat template deletes portions of the final message. Please verify the chat template and final message in your chat to ensure they are compatible.")
	}
	at := strings.LastIndex(out, strings.TrimSpace(continueTag))
	if strings.HasPrefix(out[at:], continueTag) {
		// The template keeps the message's spacing.
		return out[:at], nil
	}
	// The template trimmed the message's trailing space.
	return strings.TrimRightFunc(out[:at], pyre.IsSpace), nil
}

// Apply renders msgs as lm-eval's HFLM.apply_chat_template does
// (lm_eval/models/huggingface.py): continue_final_message is
// !addGenerationPrompt, and when the template raises a TemplateError
// (a system role it does not support, say) it renders again without the
// system messages. fellBack reports that second try.
func (t *Template) Apply(msgs []Message, addGenerationPrompt bool) (out string, fellBack bool, err error) {
	out, err = t.Render(msgs, addGenerationPrompt, !addGenerationPrompt)
	var te *TemplateError
	if !errors.As(err, &te) {
		return out, false, err
	}
	kept := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if m.Role != "system" {
			kept = append(kept, m)
		}
	}
	out, err = t.Render(kept, addGenerationPrompt, !addGenerationPrompt)
	return out, true, err
}

// strftimeNow is transformers' strftime_now: datetime.now().strftime(format).
func (t *Template) strftimeNow(args []any, kwargs map[string]any) (any, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, &PythonError{Type: "TypeError", Msg: fmt.Sprintf("strftime_now() takes 1 positional argument but %d were given", len(args)+len(kwargs))}
	}
	f, ok := args[0].(string)
	if !ok {
		return nil, &PythonError{Type: "TypeError", Msg: "strftime() argument 1 must be str"}
	}
	return strftime(t.now(), f), nil
}

// messageOrder is the key order of the message dicts transformers passes
// (lm-eval builds them as {"role": ..., "content": ...}): iterating a
// message, or tojson of it, follows it.
var messageOrder = func() *pyval.Columns {
	c := &pyval.Columns{}
	m := c.Add("messages")
	m.Add("role")
	m.Add("content")
	return c
}()

// env is a chat-template environment: transformers' sandbox settings with
// raise_exception. strftime_now is a variable of each render, since it
// reads the template's clock.
func env() *jinja.Env {
	e := jinja.New(jinja.HFChatTemplate())
	e.RegisterFunc("raise_exception", func(args []any, _ map[string]any) (any, error) {
		if len(args) != 1 {
			return nil, &PythonError{Type: "TypeError", Msg: fmt.Sprintf("raise_exception() takes 1 positional argument but %d were given", len(args))}
		}
		return nil, &RaisedError{Msg: pyval.Str(args[0])}
	})
	return e
}
