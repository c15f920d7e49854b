package llama

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/chat"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/harness/model"
)

// DefaultChatTemplateKey is the GGUF key of a model's default chat template.
// Named templates (Hugging Face tokenizers with several, converted to GGUF)
// live under DefaultChatTemplateKey + "." + name.
const DefaultChatTemplateKey = "tokenizer.chat_template"

// ChatTemplate returns a Jinja chat template of the model, for
// --apply_chat_template, with the special tokens transformers' GGUF
// tokenizer gives it (bos, eos, unk and pad, from their token ids). name
// picks it as lm-eval's LM.chat_template does, the GGUF's default template
// being the "default" of a tokenizer's dict of templates:
//
//   - "" is the default template; a model with named templates and no
//     default is an error naming them;
//   - a name is tokenizer.chat_template.NAME, or "default" the default; a
//     name the model does not have is an error naming those it has, except
//     that a model without named templates uses its one template, with a
//     warning (lm-eval's behaviour);
//   - a name ending in ".jinja" or containing a path separator is a
//     template file, read instead (lmeval's addition).
//
// A template that does not compile is still returned, so the harness fails
// with its error; the file and key at fault are logged here first, because
// the harness knows neither.
func (l *LM) ChatTemplate(name string) (model.ChatTemplateText, error) {
	src, where, err := l.chatTemplateSource(name)
	if err != nil {
		return model.ChatTemplateText{}, err
	}
	out := model.ChatTemplateText{Source: src, Origin: where, Tokens: l.specialTokens()}
	if _, err := chat.Compile(src, out.Tokens, chat.Options{}); err != nil {
		slog.Error("chat template does not compile", "model", l.m.Settings().Path, "template", where, "err", err)
	}
	return out, nil
}

// chatTemplateSource finds the template text for name and says where it
// came from (a GGUF key or a file).
func (l *LM) chatTemplateSource(name string) (template, where string, err error) {
	if strings.HasSuffix(name, ".jinja") || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		data, err := os.ReadFile(name)
		if err != nil {
			return "", "", fmt.Errorf("chat template file: %w", err)
		}
		return string(data), name, nil
	}
	// The key itself, not Facts().ChatTemplate: without the key llama.cpp
	// may name one of its built-in (non-Jinja) templates.
	def, hasDefault := l.m.Meta(DefaultChatTemplateKey)
	hasDefault = hasDefault && def != ""
	if name != "" && name != "default" {
		if t, ok := l.m.Meta(DefaultChatTemplateKey + "." + name); ok && t != "" {
			return t, DefaultChatTemplateKey + "." + name, nil
		}
	}
	if name == "" && hasDefault {
		return def, DefaultChatTemplateKey, nil
	}
	names, err := l.chatTemplateNames()
	if err != nil {
		return "", "", err
	}
	switch {
	case name == "" && len(names) > 0:
		return "", "", fmt.Errorf("the model has several chat templates and no default: give --apply_chat_template one of %s", strings.Join(names, ", "))
	case name == "default" && hasDefault:
		return def, DefaultChatTemplateKey, nil
	case name != "" && len(names) > 0:
		return "", "", fmt.Errorf("the model has no chat template named %q; it has %s", name, strings.Join(append([]string{"default"}, names...), ", "))
	case name != "" && hasDefault:
		slog.Warn("a chat template name was given, but the model has only its default template: using it", "name", name)
		return def, DefaultChatTemplateKey, nil
	}
	return "", "", model.ErrNoChatTemplate
}

// chatTemplateNames lists the model's named templates
// (tokenizer.chat_template.NAME), from the GGUF file's metadata.
func (l *LM) chatTemplateNames() ([]string, error) {
	path := l.m.Settings().Path
	f, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("listing the chat templates of %s: %w", path, err)
	}
	var names []string
	for _, kv := range f.KV {
		if n, ok := strings.CutPrefix(kv.Key, DefaultChatTemplateKey+"."); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// specialTokens are the special tokens transformers' GGUF tokenizer has
// (integrations/gguf/gguf_tokenizer_mapping.py): bos, eos, unk and pad,
// each the text of the token whose id the file gives (none without the
// id), and the defaults of the tokenizer class it builds.
func (l *LM) specialTokens() model.SpecialTokens {
	text := func(key string) string {
		s, ok := l.m.Meta("tokenizer.ggml." + key)
		if !ok {
			return ""
		}
		id, err := strconv.ParseInt(s, 10, 32)
		if err != nil || id < 0 || int(id) >= l.m.Settings().NVocab {
			return ""
		}
		return l.m.TokenPiece(int32(id))
	}
	t := model.SpecialTokens{BOS: text("bos_token_id"), EOS: text("eos_token_id"), UNK: text("unknown_token_id"), PAD: text("padding_token_id")}
	// Gemma's vocabularies get transformers' GemmaTokenizer, whose
	// mask_token defaults to <mask> (select_tokenizer_builder).
	vocab, _ := l.m.Meta("tokenizer.ggml.model")
	switch arch := l.m.Facts().Architecture; {
	case vocab == "llama" && (arch == "gemma" || arch == "gemma2" || arch == "gemma3"), vocab == "gemma4":
		t.MASK = "<mask>"
	}
	return t
}

// CountTokens implements the harness's TokenCounter: the tokens text takes
// as a request context (engine.Model.Encode, lm-eval's tok_encode:
// special-token texts parsed, BOS added when the engine adds it and the
// text does not start with it).
func (l *LM) CountTokens(text string) (int, error) {
	toks, err := l.m.Encode(text)
	return len(toks), err
}

// MaxLength implements the harness's TokenCounter: the longest token
// sequence one request may use (model_arg max_length, else the training
// context capped at n_ctx).
func (l *LM) MaxLength() int { return l.m.Settings().MaxLength }
