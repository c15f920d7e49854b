package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// qwenLike is the part of a Qwen3-style template that reads
// enable_thinking: with it false, an empty reasoning block is prefilled.
const qwenLike = "{%- for message in messages %}{{ '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}{%- endfor %}" +
	"{%- if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{%- if enable_thinking is defined and enable_thinking is false %}{{ '<think>\n\n</think>\n\n' }}{%- endif %}{%- endif %}" +
	"{%- if reasoning_effort is defined %}{{ 'effort=' + reasoning_effort }}{%- endif %}"

func TestChatTemplateVars(t *testing.T) {
	msgs := []task.ChatMessage{{Role: "user", Content: "Hi"}}
	for _, c := range []struct {
		vars map[string]any
		want string
	}{
		{nil, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"},
		{map[string]any{"enable_thinking": true}, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"},
		{map[string]any{"enable_thinking": false}, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"},
		{map[string]any{"reasoning_effort": "low"}, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\neffort=low"},
	} {
		render, err := chatTemplate(chatDummy{template: qwenLike}, "", c.vars)
		if err != nil {
			t.Fatal(err)
		}
		got, err := render(msgs, true)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("vars %v: %q, want %q", c.vars, got, c.want)
		}
	}
	// transformers passes messages itself: a variable of that name fails
	// (TypeError: got multiple values for keyword argument 'messages').
	if _, err := chatTemplate(chatDummy{template: qwenLike}, "", map[string]any{"messages": "x"}); err == nil {
		t.Error("a chat_template_args variable named messages: no error")
	}
}

func TestParseChatOptions(t *testing.T) {
	o, err := parseChatOptions(map[string]string{"chat_template_args": `{"reasoning_effort": "low", "n": 2, "x": 1.0}`, "enable_thinking": "True", "think_end_token": "</think>"})
	if err != nil {
		t.Fatal(err)
	}
	if o.templateArgs["reasoning_effort"] != "low" || o.templateArgs["enable_thinking"] != true || o.templateArgs["n"] != 2 || o.templateArgs["x"] != 1.0 {
		t.Errorf("template args %v", o.templateArgs)
	}
	if o.thinkEnd != "</think>" {
		t.Errorf("think_end_token %q", o.thinkEnd)
	}
	if _, err := parseChatOptions(map[string]string{"enable_thinking": "true"}); err == nil || !strings.Contains(err.Error(), "think_end_token is required") {
		t.Errorf("enable_thinking without think_end_token: %v", err)
	}
	if _, err := parseChatOptions(map[string]string{"chat_template_args": "[1]"}); err == nil {
		t.Error("chat_template_args that is no object: no error")
	}
	o, _ = parseChatOptions(map[string]string{"think_end_token": "151668"})
	if o.thinkTokenID != 151668 {
		t.Errorf("token id %d", o.thinkTokenID)
	}
	if err := o.resolveThinkToken(model.LM(nil)); err == nil {
		t.Error("a token id with a model that cannot give its text: no error")
	}
}

func TestPostprocessThinking(t *testing.T) {
	o := chatOptions{thinkEnd: "</think>"}
	for _, c := range []struct{ in, want string }{
		{"<think>a\n\nb</think>\n\n The answer is lol\n\nmore", "The answer is lol"},
		{"<think>x</think>one</think>  two\n", "two"},
		{"no trace at all\nsecond", "no trace at all"},
	} {
		if got := o.postprocess(c.in, []string{"\n"}); got != c.want {
			t.Errorf("postprocess(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// thinkingLM answers every generation with a reasoning trace before the
// answer, and counts log-likelihood calls.
type thinkingLM struct {
	*dummy.LM
	answer string
}

func (l thinkingLM) GenerateUntil(_ context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i := range reqs {
		// The engine stops at the task's until ("\n"), which the trace
		// here does not contain.
		out[i] = "<think>Maybe lal? No: the user wants lol.</think>  " + l.answer
	}
	return out, nil
}

func (l thinkingLM) TokenPiece(id int32) string {
	if id == 7 {
		return "</think>"
	}
	return ""
}

// TestThinkingStrippedBeforeFilters: with think_end_token the filters see
// only the answer after the trace (the regex would match "lal" in the
// trace first), the samples' resps are the stripped text, and
// enable_thinking refuses log-likelihood tasks.
func TestThinkingStrippedBeforeFilters(t *testing.T) {
	d, _ := dummy.New(nil)
	for _, tok := range []string{"</think>", "7"} {
		cfg := testConfig(t, "toy_gen")
		cfg.ModelArgs = map[string]string{"think_end_token": tok, "enable_thinking": "true", "chat_template_args": `{"x": 1}`}
		samples := newMemSamples()
		res, err := evaluate(context.Background(), cfg, thinkingLM{d, "lol, I say lol"}, WithRegistry(testRegistry(t)), WithSamples(samples.open))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range samples.byTask["toy_gen"] {
			if s.Filter != "strict" {
				continue
			}
			n++
			if got := s.Resps[0][0]; got != "lol, I say lol" {
				t.Errorf("think_end_token=%s: resps %q, want the answer without its trace", tok, got)
			}
			if got := s.FilteredResps[0]; got != "lol" {
				t.Errorf("think_end_token=%s: filtered %q, want lol (the trace's lal is gone)", tok, got)
			}
		}
		if n == 0 {
			t.Fatal("no samples")
		}
		if res == nil {
			t.Fatal("no results")
		}
	}
	// Without think_end_token the trace reaches the filters.
	cfg := testConfig(t, "toy_gen")
	samples := newMemSamples()
	if _, err := evaluate(context.Background(), cfg, thinkingLM{d, "lol"}, WithRegistry(testRegistry(t)), WithSamples(samples.open)); err != nil {
		t.Fatal(err)
	}
	for _, s := range samples.byTask["toy_gen"] {
		if s.Filter == "strict" && s.FilteredResps[0] != "lal" {
			t.Errorf("without think_end_token: filtered %q, want the trace's lal", s.FilteredResps[0])
		}
	}
	cfg = testConfig(t, "toy_mc")
	cfg.ModelArgs = map[string]string{"think_end_token": "</think>", "enable_thinking": "true"}
	_, err := evaluate(context.Background(), cfg, thinkingLM{d, "x"}, WithRegistry(testRegistry(t)))
	if err == nil || !strings.Contains(err.Error(), "enable_thinking=True is not compatible with loglikelihood tasks") || !strings.Contains(err.Error(), "toy_mc") {
		t.Errorf("enable_thinking with a multiple-choice task: %v", err)
	}
}
