package llama

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/chat"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

const (
	chatML = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
		"{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
	// Gemma's template: bos_token and raise_exception.
	gemma = "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}" +
		"{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}" +
		"{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}" +
		"{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}" +
		"{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}" +
		"{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}"
	// zephyr's template: eos_token, and trim_blocks/lstrip_blocks matter.
	zephyr = "{% for message in messages %}\n{% if message['role'] == 'user' %}\n{{ '<|user|>\n' + message['content'] + eos_token }}\n" +
		"{% elif message['role'] == 'assistant' %}\n{{ '<|assistant|>\n'  + message['content'] + eos_token }}\n{% endif %}\n" +
		"{% if loop.last and add_generation_prompt %}\n{{ '<|assistant|>' }}\n{% endif %}\n{% endfor %}"
	broken = "{% for message in messages %}{{ message.content }}"
)

// chatModel writes a small GGUF with a default chat template and named
// ones, and loads it.
func chatModel(t *testing.T, opts engine.Options) (*LM, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chat.gguf")
	f := ggufwrite.Llama(ggufwrite.LlamaSpec{ChatTemplate: chatML, AddBOS: true, NCtx: 512})
	f.SetKV("tokenizer.chat_template.gemma", gemma)
	f.SetKV("tokenizer.chat_template.broken", broken)
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if opts.Threads == 0 {
		opts.Threads = 1
	}
	m, err := engine.Load(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return Wrap(m), path
}

func TestChatTemplateSelection(t *testing.T) {
	lm, _ := chatModel(t, engine.Options{})
	file := filepath.Join(t.TempDir(), "zephyr.jinja")
	if err := os.WriteFile(file, []byte(zephyr), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want string // "" when no template is expected
	}{
		{"", chatML},
		{"default", chatML},
		{"gemma", gemma},
		{"broken", broken},
		{file, zephyr},
		{"tool_use", ""},
		{filepath.Join(t.TempDir(), "missing.jinja"), ""},
	} {
		got, err := lm.ChatTemplate(tc.name)
		if (err == nil) != (tc.want != "") || got.Source != tc.want {
			t.Errorf("ChatTemplate(%q) = %.30q, %v; want %.30q", tc.name, got.Source, err, tc.want)
			continue
		}
		// ggufwrite's SPM vocabulary: BOS 1 is <s>, EOS 2 is </s>.
		if err == nil && (got.Tokens.BOS != "<s>" || got.Tokens.EOS != "</s>") {
			t.Errorf("ChatTemplate(%q) tokens %+v, want <s> </s>", tc.name, got.Tokens)
		}
	}
	// A name the model lacks lists those it has.
	if _, err := lm.ChatTemplate("tool_use"); err == nil || !strings.Contains(err.Error(), "default, broken, gemma") {
		t.Errorf("ChatTemplate(tool_use) error %v, want one listing default, broken, gemma", err)
	}
}

// TestChatTemplateNames: the default template and named ones, picked as
// lm-eval's LM.chat_template picks them from a tokenizer's templates.
func TestChatTemplateNames(t *testing.T) {
	write := func(def string, named map[string]string) *LM {
		path := filepath.Join(t.TempDir(), "m.gguf")
		f := ggufwrite.Llama(ggufwrite.LlamaSpec{ChatTemplate: def, NCtx: 512})
		for n, src := range named {
			f.SetKV("tokenizer.chat_template."+n, src)
		}
		if err := f.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		m, err := engine.Load(path, engine.Options{Threads: 1, VocabOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return Wrap(m)
	}
	only := write(chatML, nil)
	if got, err := only.ChatTemplate("rag"); err != nil || got.Source != chatML {
		t.Errorf("one template, a name given: %.20q, %v; want the template (lm-eval warns and uses it)", got.Source, err)
	}
	noDefault := write("", map[string]string{"rag": gemma, "tool_use": zephyr})
	if _, err := noDefault.ChatTemplate(""); err == nil || !strings.Contains(err.Error(), "rag, tool_use") {
		t.Errorf("named templates, no default: %v", err)
	}
	if got, err := noDefault.ChatTemplate("rag"); err != nil || got.Source != gemma {
		t.Errorf("ChatTemplate(rag) = %.20q, %v", got.Source, err)
	}
	none := write("", nil)
	if _, err := none.ChatTemplate(""); !errors.Is(err, model.ErrNoChatTemplate) {
		t.Errorf("no template: %v, want ErrNoChatTemplate", err)
	}
}

// TestChatTemplateRender renders the model's templates as the harness does
// and checks the outputs against Python's jinja2 (transformers' settings).
func TestChatTemplateRender(t *testing.T) {
	lm, _ := chatModel(t, engine.Options{})
	file := filepath.Join(t.TempDir(), "zephyr.jinja")
	if err := os.WriteFile(file, []byte(zephyr), 0o644); err != nil {
		t.Fatal(err)
	}
	sys := task.ChatMessage{Role: "system", Content: "Be brief."}
	user := task.ChatMessage{Role: "user", Content: "Q: 2+2?\nA:"}
	asst := task.ChatMessage{Role: "assistant", Content: " 4 "}
	for _, tc := range []struct {
		name    string
		msgs    []task.ChatMessage
		gen     bool
		want    string // from python3 with jinja2 (ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loopcontrols)
		wantErr string
	}{
		{"", []task.ChatMessage{sys, user}, true,
			"<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nQ: 2+2?\nA:<|im_end|>\n<|im_start|>assistant\n", ""},
		{"", []task.ChatMessage{user, asst, user}, false,
			"<|im_start|>user\nQ: 2+2?\nA:<|im_end|>\n<|im_start|>assistant\n 4 <|im_end|>\n<|im_start|>user\nQ: 2+2?\nA:", ""},
		{"gemma", []task.ChatMessage{user, asst, user}, true,
			"<s><start_of_turn>user\nQ: 2+2?\nA:<end_of_turn>\n<start_of_turn>model\n4<end_of_turn>\n<start_of_turn>user\nQ: 2+2?\nA:<end_of_turn>\n<start_of_turn>model\n", ""},
		{"gemma", []task.ChatMessage{sys, user}, true, "", "System role not supported"},
		{"gemma", []task.ChatMessage{user, user}, true, "", "Conversation roles must alternate"},
		{file, []task.ChatMessage{user, asst, user}, true,
			"<|user|>\nQ: 2+2?\nA:</s>\n<|assistant|>\n 4 </s>\n<|user|>\nQ: 2+2?\nA:</s>\n<|assistant|>\n", ""},
	} {
		text, err := lm.ChatTemplate(tc.name)
		if err != nil {
			t.Fatalf("template %q: %v", tc.name, err)
		}
		tmpl, err := chat.Compile(text.Source, text.Tokens, chat.Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.name, err)
		}
		got, err := tmpl.Render(tc.msgs, tc.gen, !tc.gen)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: err %v, want one mentioning %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q %v: got %q, %v\nwant %q", tc.name, tc.msgs, got, err, tc.want)
		}
	}
}

// TestChatTemplateBroken: a template that does not compile fails in the
// harness with an error, and the log names the model file and the key.
func TestChatTemplateBroken(t *testing.T) {
	lm, path := chatModel(t, engine.Options{})
	var log bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	defer slog.SetDefault(old)
	text, err := lm.ChatTemplate("broken")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chat.Compile(text.Source, text.Tokens, chat.Options{}); err == nil {
		t.Error("broken template compiled")
	}
	for _, want := range []string{"chat template does not compile", path, "tokenizer.chat_template.broken"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	// The good templates log nothing.
	log.Reset()
	lm.ChatTemplate("")
	lm.ChatTemplate("gemma")
	if log.Len() != 0 {
		t.Errorf("log for good templates:\n%s", log.String())
	}
}

// TestCountTokens checks token counts against the vocabulary's layout:
// ggufwrite's default SPM vocabulary has no word pieces, so SentencePiece
// spells text in byte tokens, with spaces as "▁" (3 bytes) and a dummy
// prefix "▁" at the start and after a special token; BOS is added when the model
// (or add_bos_token) says so.
func TestCountTokens(t *testing.T) {
	no := false
	withBOS, _ := chatModel(t, engine.Options{})
	noBOS, _ := chatModel(t, engine.Options{AddBOS: &no, MaxLength: 48})
	for _, tc := range []struct {
		text string
		n    int // without BOS
	}{
		{"abc", 3 + 3},
		{"Q: 2+2?", 3 + 2 + 3 + 4}, // every space is "▁"
		{"é", 3 + 2},
		{"<s>abc", 1 + 3 + 3},         // <s> is parsed as the BOS token (and no BOS is added: below)
		{"<|im_start|>x", 3 + 12 + 1}, // not a token of this vocabulary: bytes
		{"</s><s>", 1 + 1},            // no text fragment, no dummy prefix
		{"", 0},
	} {
		for _, m := range []struct {
			lm  *LM
			bos int
		}{{withBOS, 1}, {noBOS, 0}} {
			want := tc.n + m.bos
			if strings.HasPrefix(tc.text, "<s>") {
				want = tc.n // HFLM's has_bos_prefix: no BOS before a text that starts with it
			}
			got, err := m.lm.CountTokens(tc.text)
			if err != nil || got != want {
				t.Errorf("CountTokens(%q) with %d BOS = %d, %v; want %d", tc.text, m.bos, got, err, want)
			}
		}
	}
	// max_length: the training context (512, below the default n_ctx), or
	// the model_arg.
	if got := withBOS.MaxLength(); got != 512 {
		t.Errorf("MaxLength = %d, want 512 (llama.context_length)", got)
	}
	if got := noBOS.MaxLength(); got != 48 {
		t.Errorf("MaxLength with max_length=48: %d", got)
	}
}

// TestInterfaces: the harness finds the optional interfaces on the backend.
func TestInterfaces(t *testing.T) {
	var lm any = &LM{}
	if _, ok := lm.(model.ChatTemplateSource); !ok {
		t.Error("*LM is not a model.ChatTemplateSource")
	}
	if _, ok := lm.(model.TokenCounter); !ok {
		t.Error("*LM is not a model.TokenCounter")
	}
}
