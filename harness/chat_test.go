package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// chatML is a ChatML-style template with a system block and a BOS token.
const chatML = "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'system' %}{{ '<<SYS>>' + message['content'] + '<</SYS>>\n' }}{% else %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"

// TestChatTemplate renders through chatTemplate as the build stage does:
// lm-eval's HFLM.apply_chat_template, continue_final_message and the
// retry without the system role (outputs from transformers 5.25).
func TestChatTemplate(t *testing.T) {
	render, err := chatTemplate(chatDummy{}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	noSystem, err := chatTemplate(chatDummy{template: gemmaLike}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := task.ChatMessage{Role: "system", Content: "Be brief."}
	for _, c := range []struct {
		render task.ChatTemplate
		msgs   []task.ChatMessage
		gen    bool
		want   string
	}{
		{render, []task.ChatMessage{sys, {Role: "user", Content: "Q: What color is the sky?\nA:"}}, true,
			"<s><<SYS>>Be brief.<</SYS>>\n<|im_start|>user\nQ: What color is the sky?\nA:<|im_end|>\n<|im_start|>assistant\n"},
		// continue_final_message keeps the final message's trailing space.
		{render, []task.ChatMessage{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "The answer is "}}, false,
			"<s><|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nThe answer is "},
		// The template raises on the system role: rendered without it.
		{noSystem, []task.ChatMessage{sys, {Role: "user", Content: "Hi"}}, true,
			"<s><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n"},
	} {
		got, err := c.render(c.msgs, c.gen)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("render(%v, %v) = %q, want %q", c.msgs, c.gen, got, c.want)
		}
	}
	// Without a system message to drop, the template's error stands.
	if _, err := noSystem([]task.ChatMessage{{Role: "user", Content: "a"}, {Role: "user", Content: "b"}}, true); err == nil ||
		!strings.Contains(err.Error(), "Conversation roles must alternate") {
		t.Errorf("non-alternating roles: err %v", err)
	}
	if _, err := chatTemplate(chatDummy{}, "tool_use", nil); err == nil {
		t.Error("a template name the model lacks: no error")
	}
}

// gemmaLike is Gemma's template: no system role, alternating roles.
const gemmaLike = "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}" +
	"{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}" +
	"{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}" +
	"{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}" +
	"{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}" +
	"{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}"

// chatDummy is the dummy model with a chat template (chatML unless
// template is set).
type chatDummy struct {
	*dummy.LM
	template string
}

func (d chatDummy) ChatTemplate(name string) (model.ChatTemplateText, error) {
	if name != "" {
		return model.ChatTemplateText{}, fmt.Errorf("no chat template named %q", name)
	}
	src := d.template
	if src == "" {
		src = chatML
	}
	return model.ChatTemplateText{Source: src, Origin: "test", Tokens: model.SpecialTokens{BOS: "<s>", EOS: "</s>"}}, nil
}

// TestApplyChatTemplate: --apply_chat_template wraps every prompt in the
// model's template, and a model without one is an error.
func TestApplyChatTemplate(t *testing.T) {
	d, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_mc")
	cfg.ChatTemplate.Enabled = true
	cfg.SystemInstruction = "Be brief."
	samples := newMemSamples()
	if _, err := evaluate(context.Background(), cfg, chatDummy{LM: d}, WithRegistry(testRegistry(t)), WithSamples(samples.open)); err != nil {
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
	if _, err := evaluate(context.Background(), cfg, d, WithRegistry(testRegistry(t))); err == nil {
		t.Error("a model without a chat template was accepted")
	}
	cfg.ChatTemplate.Name = "tool_use"
	if _, err := evaluate(context.Background(), cfg, chatDummy{LM: d}, WithRegistry(testRegistry(t))); err == nil {
		t.Error("a missing named template was accepted")
	}
}
