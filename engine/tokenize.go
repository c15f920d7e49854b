package engine

import (
	"fmt"
	"strings"
)

// Tokenize converts text to tokens. addSpecial adds the model's BOS (and
// EOS, if the vocabulary asks for it); parseSpecial lets special-token
// texts in text ("<s>", "<|im_start|>") become special tokens, as Hugging
// Face tokenizers do.
func (m *Model) Tokenize(text string, addSpecial, parseSpecial bool) ([]int32, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return m.tokenize(text, addSpecial, parseSpecial)
}

func (m *Model) tokenize(text string, addSpecial, parseSpecial bool) ([]int32, error) {
	toks, err := cTokenize(m.c, text, addSpecial, parseSpecial)
	if err != nil {
		return nil, fmt.Errorf("engine: tokenize %.40q: %w", text, err)
	}
	return toks, nil
}

// Encode tokenizes text as lm-eval's HFLM.tok_encode does, as every
// request of Loglikelihood (with a context), LoglikelihoodRolling and
// GenerateUntil is tokenized; see encode.
func (m *Model) Encode(text string) ([]int32, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return m.encode(text)
}

// encode tokenizes as lm-eval's tok_encode does: special-token texts are
// parsed, and BOS is prepended when the model (or Options.AddBOS) says so,
// unless the text already starts with the prefix token's text ("<s>..."),
// which then parses to that token (HFLM.tok_encode's has_bos_prefix check).
// EOS is never added, as in lm-eval's causal-LM encoding.
func (m *Model) encode(text string) ([]int32, error) {
	toks, err := m.tokenize(text, false, true)
	if err != nil {
		return nil, err
	}
	if m.addBOS && m.info.BOS >= 0 && !m.hasPrefixText(text) {
		toks = append([]int32{m.info.BOS}, toks...)
	}
	return toks, nil
}

// hasPrefixText reports whether text starts with the prefix token's text,
// as lm-eval's has_bos_prefix(text, tokenizer.decode(prefix_token_id)).
func (m *Model) hasPrefixText(text string) bool {
	p := m.prefixToken()
	if p < 0 {
		return false
	}
	piece := cPiece(m.c, p, true)
	return piece != "" && strings.HasPrefix(text, piece)
}

// Detokenize converts tokens to text. removeSpecial drops a leading BOS and
// trailing EOS the vocabulary adds; unparseSpecial renders special tokens
// as their text instead of nothing.
func (m *Model) Detokenize(toks []int32, removeSpecial, unparseSpecial bool) (string, error) {
	if err := m.lock(); err != nil {
		return "", err
	}
	defer m.mu.Unlock()
	for _, t := range toks {
		if t < 0 || int(t) >= m.info.NVocab {
			return "", fmt.Errorf("engine: detokenize: token %d out of range [0,%d)", t, m.info.NVocab)
		}
	}
	return cDetokenize(m.c, toks, removeSpecial, unparseSpecial)
}

// TokenText returns the text one token adds to generated text: its piece,
// with nothing for control tokens, and its leading space kept (Detokenize
// drops a first token's, as Hugging Face's decode does). The texts of a
// generation's tokens add up to the text llama.cpp's server streams.
func (m *Model) TokenText(id int32) string { return m.piece(id, false) }

// TokenPiece returns the text of one token, special tokens included.
func (m *Model) TokenPiece(id int32) string { return m.piece(id, true) }

// piece is a token's text, special tokens rendered when special is set;
// "" for an id outside the vocabulary.
func (m *Model) piece(id int32, special bool) string {
	if err := m.lock(); err != nil {
		return ""
	}
	defer m.mu.Unlock()
	if id < 0 || int(id) >= m.info.NVocab {
		return ""
	}
	return cPiece(m.c, id, special)
}
