package engine

import (
	"context"
	"math"
	"sort"
	"testing"
)

// TestScorePrompts checks every position's log-prob and top tokens
// against the log-softmax of a one-sequence decode's full rows, with
// requests sharing prefixes (decoded once) and without sharing.
func TestScorePrompts(t *testing.T) {
	path := storiesPath(t)
	for _, share := range []bool{true, false} {
		m := load(t, path, Options{TypeK: "f32", TypeV: "f32", NoPrefixSharing: !share, NCtx: 512, NBatch: 64, NUBatch: 64})
		var reqs []PromptRequest
		for i, text := range []string{
			"Once upon a time, there was a little girl named Lily",
			"Once upon a time, there was a little girl named Tom",
			"Once upon a time, there was a little girl named Lily. She liked to play",
			"The cat sat on the mat.",
			"x",
		} {
			toks, err := m.Tokenize(text, true, true)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, PromptRequest{Tokens: toks, Next: i%2 == 0})
		}
		reqs = append(reqs, PromptRequest{Tokens: []int32{1}}) // nothing to score
		const k = 3
		got, err := m.ScorePrompts(context.Background(), reqs, k)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range reqs {
			g := got[i]
			if len(g.LogProb) != r.Positions() || len(g.TopIDs) != r.Positions()*k {
				t.Fatalf("request %d: %d positions, %d top ids; want %d", i, len(g.LogProb), len(g.TopIDs), r.Positions())
			}
			if r.Positions() == 0 {
				continue
			}
			rows, err := m.allLogits(r.Tokens[:r.Positions()])
			if err != nil {
				t.Fatal(err)
			}
			for p, row := range rows {
				if p+1 < len(r.Tokens) {
					want, _ := refLogSoftmax(row, r.Tokens[p+1])
					if math.Abs(g.LogProb[p]-want) > 1e-5 {
						t.Errorf("share=%v request %d position %d: log-prob %v, want %v", share, i, p, g.LogProb[p], want)
					}
				} else if !math.IsNaN(g.LogProb[p]) {
					t.Errorf("request %d: the Next position has log-prob %v, want NaN", i, g.LogProb[p])
				}
				ids := make([]int, len(row))
				for j := range ids {
					ids[j] = j
				}
				sort.SliceStable(ids, func(a, b int) bool { return row[ids[a]] > row[ids[b]] })
				for j := 0; j < k; j++ {
					wantLP, _ := refLogSoftmax(row, int32(ids[j]))
					if g.TopIDs[p*k+j] != int32(ids[j]) || math.Abs(g.TopLogP[p*k+j]-wantLP) > 1e-5 {
						t.Errorf("share=%v request %d position %d top %d: %d (%v), want %d (%v)", share, i, p, j,
							g.TopIDs[p*k+j], g.TopLogP[p*k+j], ids[j], wantLP)
					}
				}
			}
		}
	}
}

// TestScorePromptsMatchesLoglikelihood: a continuation's summed
// per-token log-probs and greedy flag equal Loglikelihood's.
func TestScorePromptsMatchesLoglikelihood(t *testing.T) {
	m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})
	for _, p := range llPairs {
		if p.Context == "" {
			continue
		}
		c, k, err := m.EncodePair(p.Context, p.Continuation)
		if err != nil {
			t.Fatal(err)
		}
		ll, err := m.LoglikelihoodTokens(context.Background(), []TokenRequest{{Context: c, Continuation: k}})
		if err != nil {
			t.Fatal(err)
		}
		full := append(append([]int32{}, c...), k...)
		sc, err := m.ScorePrompts(context.Background(), []PromptRequest{{Tokens: full}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		sum, greedy := 0.0, true
		for p := len(c) - 1; p < len(full)-1; p++ {
			sum += sc[0].LogProb[p]
			greedy = greedy && sc[0].LogProb[p] == sc[0].TopLogP[p]
		}
		if math.Abs(sum-ll[0].LogProb) > 1e-5 || greedy != ll[0].IsGreedy {
			t.Errorf("%q+%q: summed %v greedy %v; Loglikelihood %v greedy %v", p.Context, p.Continuation, sum, greedy, ll[0].LogProb, ll[0].IsGreedy)
		}
	}
	if _, err := m.ScorePrompts(context.Background(), []PromptRequest{{Tokens: []int32{1, 1 << 20}}}, 1); err == nil {
		t.Error("a token outside the vocabulary was accepted")
	}
}

// TestScorePromptsAloneIsExact: one prompt scored alone is decoded as the
// one-sequence reference decodes it (every row an output, one sequence
// from cell 0), so its log-probs equal the double log-softmax of the
// reference's rows to rounding (1e-12), not merely to the ~1e-5 that
// batch layouts move them: what `lmeval serve` returns for a lone echo
// request carries no error of its own. (Loglikelihood, which asks llama.cpp
// for the continuation's rows only, differs from it by up to ~1e-6 a
// token: the last layer then runs on fewer rows; see docs/serve.md.)
func TestScorePromptsAloneIsExact(t *testing.T) {
	m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})
	for _, text := range []string{
		"Once upon a time, there was a little girl named Lily. She loved to play outside in the sunshine.",
		"The cat sat on the mat.",
	} {
		toks, err := m.Tokenize(text, true, true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.ScorePrompts(context.Background(), []PromptRequest{{Tokens: toks}}, 2)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := m.allLogits(toks[:len(toks)-1])
		if err != nil {
			t.Fatal(err)
		}
		for p, row := range rows {
			want, _ := refLogSoftmax(row, toks[p+1])
			if math.Abs(got[0].LogProb[p]-want) > 1e-12 {
				t.Errorf("%q position %d: log-prob %v, reference %v", text, p, got[0].LogProb[p], want)
			}
			top, _ := refLogSoftmax(row, got[0].TopIDs[2*p])
			if math.Abs(got[0].TopLogP[2*p]-top) > 1e-12 {
				t.Errorf("%q position %d: top log-prob %v, reference %v", text, p, got[0].TopLogP[2*p], top)
			}
		}
	}
}
