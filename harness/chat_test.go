package harness

import (
	"context"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// chatML is a ChatML-style template with a system block and a BOS token.
const chatML = "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'system' %}{{ '<<SYS>>' + message['content'] + '<</SYS>>\n' }}{% else %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"

// TestChatTemplate renders against Python's jinja2 (transformers'
// environment), including continue_final_message.
func TestChatTemplate(t *testing.T) {
	render, err := NewChatTemplate(chatML, "<s>", "</s>")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		msgs []task.ChatMessage
		gen  bool
		want string
	}{
		{[]task.ChatMessage{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Q: What color is the sky?\nA:"}}, true,
			"<s><<SYS>>Be brief.<</SYS>>\n<|im_start|>user\nQ: What color is the sky?\nA:<|im_end|>\n<|im_start|>assistant\n"},
		// continue_final_message keeps the final message's trailing space.
		{[]task.ChatMessage{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "The answer is "}}, false,
			"<s><|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nThe answer is "},
	} {
		got, err := render(c.msgs, c.gen)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("render(%v, %v) = %q, want %q", c.msgs, c.gen, got, c.want)
		}
	}
	bad, err := NewChatTemplate("{{ raise_exception('no system role') }}", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad([]task.ChatMessage{{Role: "user", Content: "x"}}, true); err == nil {
		t.Error("raise_exception raised nothing")
	}
}

// chatDummy is the dummy model with a chat template.
type chatDummy struct{ *model.Dummy }

func (chatDummy) ChatTemplate(name string) (string, string, string, bool) {
	if name != "" {
		return "", "", "", false
	}
	return chatML, "<s>", "</s>", true
}

// TestApplyChatTemplate: --apply_chat_template wraps every prompt in the
// model's template, and a model without one is an error.
func TestApplyChatTemplate(t *testing.T) {
	d, _ := model.NewDummy(nil)
	cfg := testConfig(t, "toy_mc")
	cfg.ChatTemplate.Enabled = true
	cfg.SystemInstruction = "Be brief."
	samples := newMemSamples()
	if _, err := Evaluate(context.Background(), cfg, chatDummy{d}, WithRegistry(testRegistry(t)), WithSamples(samples.open)); err != nil {
		t.Fatal(err)
	}
	want := "<s><<SYS>>Be brief.<</SYS>>\n<|im_start|>user\nQ: What color is the sky?\nA:<|im_end|>\n<|im_start|>assistant\n"
	found := false
	for _, s := range samples.byTask["toy_mc"] {
		if s.DocID == 0 {
			found = true
			if got := s.Arguments[0][0]; got != want {
				t.Errorf("prompt %q, want %q", got, want)
			}
		}
	}
	if !found {
		t.Fatal("no sample for document 0")
	}
	if _, err := Evaluate(context.Background(), cfg, d, WithRegistry(testRegistry(t))); err == nil {
		t.Error("a model without a chat template was accepted")
	}
	cfg.ChatTemplate.Name = "tool_use"
	if _, err := Evaluate(context.Background(), cfg, chatDummy{d}, WithRegistry(testRegistry(t))); err == nil {
		t.Error("a missing named template was accepted")
	}
}
