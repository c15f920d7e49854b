package engine

import (
	"reflect"
	"strings"
	"testing"
)

func pieces(m *Model, toks []int32) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = m.TokenPiece(t)
	}
	return out
}

// TestEncodePairSplit checks lm-eval's context/continuation split
// (TemplateLM._encode_pair) on a BPE and an SPM vocabulary: trailing
// whitespace moves to the continuation, and the continuation is what the
// whole text has beyond the context's token count, so a token straddling
// the boundary belongs to the continuation and the context's own last
// token is dropped.
func TestEncodePairSplit(t *testing.T) {
	type pair struct {
		ctx, cont        string
		wantCtx, wantCnt []string
	}
	for _, tc := range []struct {
		vocab string
		bos   bool
		pairs []pair
	}{
		{"models/vocab/ggml-vocab-gpt-2.gguf", false, []pair{
			{"The answer is", " yes", []string{"The", " answer", " is"}, []string{" yes"}},
			{"The answer is ", "yes", []string{"The", " answer", " is"}, []string{" yes"}},
			{"Question:\n", "Answer", []string{"Question", ":"}, []string{"\n", "Answer"}},
			// "hello" is one token: the whole text has one token where the
			// context alone has "hel", so the continuation starts after it.
			{"hel", "lo world", []string{"hel"}, []string{" world"}},
			{"", "Hello", []string{"<|endoftext|>"}, []string{"Hello"}},
			// A continuation that starts with the prefix token (EOS here)
			// is conditioned on it: TemplateLM.loglikelihood's split.
			{"", "<|endoftext|>Hello", []string{"<|endoftext|>"}, []string{"Hello"}},
		}},
		{"models/vocab/ggml-vocab-llama-spm.gguf", true, []pair{
			{"The answer is", " yes", []string{"<s>", " The", " answer", " is"}, []string{" yes"}},
			{"The answer is \t", "yes", []string{"<s>", " The", " answer", " is"}, []string{" ", "\t", "yes"}},
			{"hel", "lo world", []string{"<s>", " hel"}, []string{" world"}},
			// TemplateLM.loglikelihood: the continuation of an empty
			// context is tokenized with add_special_tokens=False and
			// conditioned on prefix_token_id (BOS), so BOS is not scored...
			{"", "Hello", []string{"<s>"}, []string{" Hello"}},
			// ...and one that starts with the prefix token splits it off.
			{"", "<s>Hello", []string{"<s>"}, []string{" Hello"}},
			// HFLM.tok_encode adds no BOS to a text that starts with the
			// prefix token's text (has_bos_prefix).
			{"<s>The answer is", " yes", []string{"<s>", " The", " answer", " is"}, []string{" yes"}},
		}},
	} {
		t.Run(tc.vocab, func(t *testing.T) {
			m := load(t, sharedPath(t, tc.vocab), Options{VocabOnly: true})
			if m.Settings().AddBOS != tc.bos {
				t.Fatalf("AddBOS = %v, want %v", m.Settings().AddBOS, tc.bos)
			}
			for _, p := range tc.pairs {
				c, k, err := m.EncodePair(p.ctx, p.cont)
				if err != nil {
					t.Fatalf("%q + %q: %v", p.ctx, p.cont, err)
				}
				if got := pieces(m, c); !reflect.DeepEqual(got, p.wantCtx) {
					t.Errorf("%q + %q: context %q, want %q", p.ctx, p.cont, got, p.wantCtx)
				}
				if got := pieces(m, k); !reflect.DeepEqual(got, p.wantCnt) {
					t.Errorf("%q + %q: continuation %q, want %q", p.ctx, p.cont, got, p.wantCnt)
				}
			}
		})
	}
}

// TestSkipLeadingBOSEmptyContext: skip_leading_bos changes only rolling
// texts; lm-eval's empty-context split (a continuation starting with the
// prefix token is conditioned on it) applies either way.
func TestSkipLeadingBOSEmptyContext(t *testing.T) {
	path := sharedPath(t, "models/vocab/ggml-vocab-llama-spm.gguf")
	for _, skip := range []bool{false, true} {
		m := load(t, path, Options{VocabOnly: true, SkipLeadingBOS: skip})
		for _, cont := range []string{"Hello", "<s>Hello"} {
			c, k, err := m.EncodePair("", cont)
			if err != nil {
				t.Fatal(err)
			}
			if got := append(pieces(m, c), pieces(m, k)...); !reflect.DeepEqual(got, []string{"<s>", " Hello"}) {
				t.Errorf("skip_leading_bos=%v, %q: got %q", skip, cont, got)
			}
		}
	}
}

// TestPrefixTokenOption: prefix_token_id replaces BOS as what an empty
// context becomes, as HFLM's custom_prefix_token_id does, and must name a
// token of the vocabulary.
func TestPrefixTokenOption(t *testing.T) {
	path := sharedPath(t, "models/vocab/ggml-vocab-llama-spm.gguf")
	eos := int32(2)
	m := load(t, path, Options{VocabOnly: true, PrefixToken: &eos})
	if m.Settings().PrefixToken != eos {
		t.Fatalf("PrefixToken = %d, want %d", m.Settings().PrefixToken, eos)
	}
	c, k, err := m.EncodePair("", "Hello")
	if err != nil {
		t.Fatal(err)
	}
	if got := append(pieces(m, c), pieces(m, k)...); !reflect.DeepEqual(got, []string{"</s>", " Hello"}) {
		t.Fatalf("got %q", got)
	}
	bad := int32(1 << 30)
	if _, err := Load(path, Options{VocabOnly: true, PrefixToken: &bad}); err == nil || !strings.Contains(err.Error(), "prefix token") {
		t.Fatalf("an out-of-vocabulary prefix token: err = %v", err)
	}
}

func TestTokenizeDetokenize(t *testing.T) {
	m := load(t, sharedPath(t, "models/vocab/ggml-vocab-llama-spm.gguf"), Options{VocabOnly: true})
	for _, tc := range []struct {
		text                     string
		addSpecial, parseSpecial bool
		want                     []string
		// Detokenize with removeSpecial: llama.cpp drops the SPM space
		// prefix of the first token, unless a BOS it removed came first.
		back string
	}{
		{"Hello world", true, false, []string{"<s>", " Hello", " world"}, " Hello world"},
		{"Hello world", false, false, []string{" Hello", " world"}, "Hello world"},
		{"<s>Hi", false, true, []string{"<s>", " Hi"}, " Hi"},
		{"<s>Hi", false, false, []string{" <", "s", ">", "Hi"}, "<s>Hi"},
		{"café", false, false, []string{" c", "afé"}, "café"},
	} {
		toks, err := m.Tokenize(tc.text, tc.addSpecial, tc.parseSpecial)
		if err != nil {
			t.Fatal(err)
		}
		if got := pieces(m, toks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokenize(%q, %v, %v) = %q, want %q", tc.text, tc.addSpecial, tc.parseSpecial, got, tc.want)
			continue
		}
		back, err := m.Detokenize(toks, true, false)
		if err != nil {
			t.Fatal(err)
		}
		if back != tc.back {
			t.Errorf("Detokenize(Tokenize(%q)) = %q, want %q", tc.text, back, tc.back)
		}
	}
	if _, err := m.Detokenize([]int32{1 << 30}, false, false); err == nil {
		t.Error("an out-of-range token was accepted")
	}
}
