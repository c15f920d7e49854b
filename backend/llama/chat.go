package llama

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/lmeval/lmeval/python/jinja"
)

// DefaultChatTemplateKey is the GGUF key of a model's default chat template.
// Named templates (Hugging Face tokenizers with several, converted to GGUF)
// live under DefaultChatTemplateKey + "." + name.
const DefaultChatTemplateKey = "tokenizer.chat_template"

// ChatTemplate returns a Jinja chat template of the model and its BOS and
// EOS token texts, for --apply_chat_template. name selects it as lm-eval's
// --apply_chat_template NAME does for a tokenizer with named templates:
// "" or "default" is tokenizer.chat_template, any other name
// tokenizer.chat_template.NAME; a name ending in ".jinja" or containing a
// path separator is a template file to read instead. ok is false when there
// is no such template.
//
// A template that does not compile is still returned, so the harness fails
// with its error; the file and key at fault are logged here first, because
// the harness knows neither.
func (l *LM) ChatTemplate(name string) (template, bosToken, eosToken string, ok bool) {
	template, where, ok := l.chatTemplateSource(name)
	if !ok {
		return "", "", "", false
	}
	if err := jinja.ChatTemplates().Compile(template); err != nil {
		slog.Error("chat template does not compile", "model", l.m.Info().Path, "template", where, "err", err)
	}
	info := l.m.Info()
	return template, l.specialText(info.BOS), l.specialText(info.EOS), true
}

// chatTemplateSource finds the template text for name and says where it
// came from (a GGUF key or a file).
func (l *LM) chatTemplateSource(name string) (template, where string, ok bool) {
	if strings.HasSuffix(name, ".jinja") || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		data, err := os.ReadFile(name)
		if err != nil {
			slog.Error("reading chat template", "model", l.m.Info().Path, "err", err)
			return "", "", false
		}
		return string(data), name, true
	}
	key := DefaultChatTemplateKey
	if name != "" && name != "default" {
		key += "." + name
	}
	// The key itself, not Facts().ChatTemplate: without the key llama.cpp
	// may name one of its built-in (non-Jinja) templates.
	t, ok := l.m.Meta(key)
	if !ok || t == "" {
		return "", "", false
	}
	return t, key, true
}

// specialText is a special token's text as transformers puts it in the
// chat template's bos_token and eos_token: "" when the vocabulary has none.
func (l *LM) specialText(id int32) string {
	if id < 0 {
		return ""
	}
	return l.m.TokenPiece(id)
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
func (l *LM) MaxLength() int { return l.m.Info().MaxLength }
