package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

// The model card's reference continuation, which llama.cpp reproduces.
const storiesRef = ", there was a little girl named Lily. She loved to play outside in the park."

func TestGreedyStories(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	out, err := m.GenerateUntil(context.Background(), []GenerateRequest{{Context: "Once upon a time", MaxGenToks: 40}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out[0], storiesRef) {
		t.Fatalf("greedy continuation = %q, want prefix %q", out[0], storiesRef)
	}
}

func TestSampling(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	ctx := context.Background()
	gen := func(reqs ...GenerateRequest) []string {
		out, err := m.GenerateUntil(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	req := GenerateRequest{Context: "Once upon a time", MaxGenToks: 40, DoSample: true, Temperature: 1, Seed: 5}
	a := gen(req)[0]
	other := req
	other.Context = "Lily and Tom"
	batched := gen(other, req, other)
	if a != batched[1] {
		t.Errorf("same seed, batched: %q, alone %q", batched[1], a)
	}
	diff := 0
	for seed := int64(6); seed < 10; seed++ {
		r := req
		r.Seed = seed
		if gen(r)[0] != a {
			diff++
		}
	}
	if diff == 0 {
		t.Errorf("four other seeds all gave %q", a)
	}
	// Top-k 1 leaves only the argmax: sampling must then be greedy.
	k1 := req
	k1.TopK = 1
	if got := gen(k1)[0]; !strings.HasPrefix(got, storiesRef) {
		t.Errorf("top-k 1 sample %q, want greedy %q", got, storiesRef)
	}
	// A temperature without DoSample stays greedy, as with HF generate.
	if got := gen(GenerateRequest{Context: "Once upon a time", MaxGenToks: 40, Temperature: 0.8})[0]; !strings.HasPrefix(got, storiesRef) {
		t.Errorf("temperature without do_sample: %q", got)
	}
}

// An empty context generates from the prefix token alone: [BOS] for a
// BOS-adding tokenizer (what lm-eval's tok_batch_encode gives ""), the
// prefix token (EOS here) for one that adds none. Either way it continues
// exactly as the prefix token's own text does.
func TestGenerateEmptyContext(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *Model
	}{
		{"stories260K", load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})},
		{"no-BOS", load(t, writeTiny(t, ggufwrite.LlamaSpec{NoBOS: true, Seed: 3}), exactOpts)},
	} {
		m := tc.m
		prefix := m.TokenPiece(m.Settings().PrefixToken)
		out, err := m.GenerateUntil(context.Background(), []GenerateRequest{
			{Context: "", MaxGenToks: 12}, {Context: prefix, MaxGenToks: 12}, {Context: "Once", MaxGenToks: 12},
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if out[0] == "" || out[0] != out[1] {
			t.Errorf("%s: empty context generated %q, the prefix token %q generated %q", tc.name, out[0], prefix, out[1])
		}
	}
}

// TestGenerateTokens: Generate's tokens are the ones generated: their
// texts (TokenText) add up to the reference continuation, which is the
// text with the first token's leading space; a stop string cuts the text
// but not the tokens; EOG is set only when the model ended the text.
func TestGenerateTokens(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	gens, err := m.Generate(context.Background(), []GenerateRequest{
		{Context: "Once upon a time", MaxGenToks: 12},
		{Context: "Once upon a time", MaxGenToks: 40, Until: []string{"."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range gens {
		var joined strings.Builder
		for _, tok := range g.Tokens {
			joined.WriteString(m.TokenText(tok))
		}
		if !strings.HasPrefix(storiesRef, joined.String()) && !strings.HasPrefix(joined.String(), storiesRef) {
			t.Errorf("request %d: tokens' texts %q are not the reference continuation %q", i, joined.String(), storiesRef)
		}
		if g.EOG {
			t.Errorf("request %d: EOG set though the text goes on", i)
		}
	}
	if len(gens[0].Tokens) != 12 || gens[0].Text != ", there was a little girl named Lily. She" {
		t.Errorf("12 tokens: %d tokens, text %q", len(gens[0].Tokens), gens[0].Text)
	}
	if gens[1].Text != ", there was a little girl named Lily" || !strings.HasSuffix(m.TokenText(gens[1].Tokens[len(gens[1].Tokens)-1]), ".") {
		t.Errorf("stop \".\": text %q, last token %q", gens[1].Text, m.TokenText(gens[1].Tokens[len(gens[1].Tokens)-1]))
	}
}
