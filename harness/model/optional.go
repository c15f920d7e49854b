package model

import (
	"context"
	"errors"
)

// The optional interfaces a backend may implement beyond LM, all in this
// file (as database/sql/driver keeps its). The harness finds them with As,
// through any wrapper (the response cache) in front of the backend. Each
// backend asserts at compile time the ones it implements.

// Closer is implemented by LMs that hold resources (a loaded model).
type Closer interface{ Close() error }

// Describer is implemented by LMs that report facts about themselves: for
// the results file's lmeval block and for the response cache's identity
// (see Description).
type Describer interface {
	Describe() Description
}

// FileHasher is implemented by LMs that fingerprint their model file in
// the background (llama), so that loading does not wait for it. SHA256
// waits for the hex sha256 ("" when there is no file to hash). A wrapper
// that already knows it (the response cache, from its identity) gives it
// with SetSHA256, so the file is not read twice. The harness puts the sum
// in Description's ModelFile.SHA256 for the results.
type FileHasher interface {
	SHA256() (string, error)
	SetSHA256(sum string)
}

// TokenCounter is implemented by models that can count a prompt's tokens
// and report their context length; with it, tasks given as
// suite|task|shots|1 drop few-shot examples until their prompts fit, and
// progress is counted in tokens.
type TokenCounter interface {
	CountTokens(text string) (int, error)
	MaxLength() int
}

// ChatMessage is one message of a chat transcript.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatTemplater is implemented by models that render their own chat
// template (--apply_chat_template): remote chat APIs.
type ChatTemplater interface {
	ApplyChatTemplate(msgs []ChatMessage, addGenerationPrompt bool) (string, error)
}

// ChatTemplateSource is implemented by models that carry Jinja chat
// templates (a GGUF's tokenizer.chat_template, and
// tokenizer.chat_template.NAME for named ones); the harness renders them
// as transformers' apply_chat_template does (package chat). name is ""
// for the template --apply_chat_template picks without a name. The error
// is ErrNoChatTemplate when the model has none, else it says why the
// named one cannot be had (and which names there are).
type ChatTemplateSource interface {
	ChatTemplate(name string) (ChatTemplateText, error)
}

// ChatTemplateText is a model's chat template as the tokenizer holds it.
type ChatTemplateText struct {
	Source string        // the Jinja source
	Origin string        // where it is from: a GGUF key, a file, a server
	Tokens SpecialTokens // the tokenizer's special tokens, template variables
}

// ErrNoChatTemplate is a ChatTemplateSource's error for a model without a
// chat template.
var ErrNoChatTemplate = errors.New("the model has no chat template (tokenizer.chat_template)")

// Generator is implemented by models that count the tokens of what they
// generate and follow a request's Reasoning: Generate answers
// generate_until requests as GenerateUntil does, with the counts. The
// harness uses it, when a model has it, for the thinking and answer token
// counts of its results.
type Generator interface {
	Generate(ctx context.Context, reqs []GenerateRequest) ([]Generation, error)
}

// Generate answers reqs with lm's Generate when lm itself is a Generator,
// else with its GenerateUntil and the token counts unknown (-1). Only lm
// is asked, not the models behind its wrappers: a wrapper that answers
// GenerateUntil in its own way (a cache, a recorder) is not bypassed.
func Generate(ctx context.Context, lm LM, reqs []GenerateRequest) ([]Generation, error) {
	if g, ok := lm.(Generator); ok {
		return g.Generate(ctx, reqs)
	}
	texts, err := lm.GenerateUntil(ctx, reqs)
	if err != nil {
		return nil, err
	}
	return Uncounted(texts), nil
}

// Uncounted are generations whose token counts are unknown (-1).
func Uncounted(texts []string) []Generation {
	out := make([]Generation, len(texts))
	for i, s := range texts {
		out[i] = Generation{Text: s, Tokens: -1, ReasoningTokens: -1}
	}
	return out
}

// TokenPiecer is implemented by models that can give a token's text; a
// think_end_token given as a token id needs it.
type TokenPiecer interface {
	TokenPiece(id int32) string
}

// Wrapper is implemented by LMs that stand in front of another (the
// response cache); As looks through them.
type Wrapper interface {
	Unwrap() LM
}

// As finds the optional interface T on lm or, through Wrapper, on the
// models it wraps: the outermost that implements T wins. It is the one way
// the harness and the CLI look for optional interfaces.
func As[T any](lm LM) (T, bool) {
	for lm != nil {
		if v, ok := lm.(T); ok {
			return v, true
		}
		w, ok := lm.(Wrapper)
		if !ok {
			break
		}
		lm = w.Unwrap()
	}
	var zero T
	return zero, false
}

// SpecialTokens are a tokenizer's named special tokens, as transformers
// passes them to a chat template (special_tokens_map): "" is a token the
// tokenizer does not have, which the template sees as undefined.
type SpecialTokens struct {
	BOS, EOS, UNK, SEP, PAD, CLS, MASK string
}

// Map lists the tokens the tokenizer has as template variables
// (bos_token, ...), in transformers' order.
func (t SpecialTokens) Map() [][2]string {
	var out [][2]string
	for _, kv := range [][2]string{
		{"bos_token", t.BOS}, {"eos_token", t.EOS}, {"unk_token", t.UNK}, {"sep_token", t.SEP},
		{"pad_token", t.PAD}, {"cls_token", t.CLS}, {"mask_token", t.MASK},
	} {
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	return out
}
