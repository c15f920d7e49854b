package engine

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestRollingWindows(t *testing.T) {
	seq := func(a, b int32) []int32 {
		var s []int32
		for i := a; i <= b; i++ {
			s = append(s, i)
		}
		return s
	}
	// Worked by hand from lm_eval/utils.py get_rolling_token_windows and
	// make_disjoint_window, prefix token 0.
	for _, tc := range []struct {
		name           string
		tokens         []int32
		maxLen, ctxLen int
		want           []Window
	}{
		{"empty", nil, 4, 1, nil},
		{"shorter than a window", seq(1, 2), 4, 1, []Window{{[]int32{0}, seq(1, 2)}}},
		{"exactly one window", seq(1, 4), 4, 1, []Window{{[]int32{0}, seq(1, 4)}}},
		{"three windows", seq(1, 10), 4, 1, []Window{
			{[]int32{0}, seq(1, 4)},
			{[]int32{4}, seq(5, 8)},
			{seq(6, 8), seq(9, 10)},
		}},
		{"context_len 2", seq(1, 10), 4, 2, []Window{
			{[]int32{0}, seq(1, 4)},
			{seq(3, 4), seq(5, 7)},
			{seq(6, 7), seq(8, 10)},
		}},
		{"max_seq_len 1", seq(1, 3), 1, 1, []Window{
			{[]int32{0}, seq(1, 1)},
			{seq(1, 1), seq(2, 2)},
			{seq(2, 2), seq(3, 3)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RollingWindows(tc.tokens, 0, tc.maxLen, tc.ctxLen)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			// Every token predicted exactly once, in order.
			var pred []int32
			for _, w := range got {
				pred = append(pred, w.Continuation...)
			}
			if len(tc.tokens) > 0 && !reflect.DeepEqual(pred, tc.tokens) {
				t.Errorf("predicted %v, want %v", pred, tc.tokens)
			}
		})
	}
	if _, err := RollingWindows(seq(1, 3), 0, 2, 3); err == nil {
		t.Error("context_len > max_seq_len accepted")
	}
}

const storyText = "Once upon a time, there was a little girl named Lily. She loved to play outside in the park. " +
	"One day, she saw a big red ball. She ran to get it, but a dog took it first. Lily was sad, " +
	"but then the dog brought the ball back and they played together all day."

// TestRollingMatchesPerTokenSum checks loglikelihood_rolling against the
// per-token log-probs of each window computed from full decodes.
func TestRollingMatchesPerTokenSum(t *testing.T) {
	path := storiesPath(t)
	for _, tc := range []struct {
		name    string
		maxLen  int
		skipBOS bool
	}{{"max_length-16", 16, false}, {"max_length-37", 37, false}, {"skip-leading-bos", 16, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := load(t, path, Options{TypeK: "f32", TypeV: "f32", MaxLength: tc.maxLen, SkipLeadingBOS: tc.skipBOS})
			texts := []string{storyText, "Lily", strings.Repeat("The sun was hot. ", 9)}
			got, err := m.LoglikelihoodRolling(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range texts {
				toks, err := m.Tokenize(text, true, false)
				if err != nil {
					t.Fatal(err)
				}
				if toks[0] != 1 {
					t.Fatalf("stories260K should add BOS (1), got %v", toks[:1])
				}
				if tc.skipBOS {
					toks = toks[1:]
				}
				wins, err := RollingWindows(toks, 1, tc.maxLen, 1)
				if err != nil {
					t.Fatal(err)
				}
				want := 0.0
				for _, w := range wins {
					lp, _ := refScore(t, m, w.Context, w.Continuation)
					want += lp
				}
				if got[i].NumTokens != len(toks) || got[i].Windows != len(wins) {
					t.Errorf("text %d: %d tokens in %d windows, want %d in %d", i, got[i].NumTokens, got[i].Windows, len(toks), len(wins))
				}
				if math.Abs(got[i].LogProb-want) > 1e-4 {
					t.Errorf("text %d: rolling log-prob %.6f, per-token sum %.6f", i, got[i].LogProb, want)
				}
			}
			if tc.maxLen == 16 && got[0].Windows < 3 {
				t.Errorf("only %d windows: the test does not exercise rolling", got[0].Windows)
			}
		})
	}
}

// TestRollingSingleWindowIsLoglikelihood: a text that fits one window.
// lm-eval's rolling path tokenizes it with BOS (tok_encode) and conditions
// that on the prefix BOS, so it scores BOS given BOS and then the text
// given [BOS, BOS]; a loglikelihood request with an empty context
// tokenizes the text without BOS (add_special_tokens=False) and conditions
// it on one BOS. With SkipLeadingBOS the rolling path scores the latter.
func TestRollingSingleWindowIsLoglikelihood(t *testing.T) {
	for _, skip := range []bool{false, true} {
		m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32", SkipLeadingBOS: skip})
		ctx := context.Background()
		roll, err := m.LoglikelihoodRolling(ctx, []string{storyText})
		if err != nil {
			t.Fatal(err)
		}
		bos := m.Settings().BOS
		text, err := m.Tokenize(storyText, false, false)
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		if skip {
			ll, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{{"", storyText}})
			if err != nil {
				t.Fatal(err)
			}
			want = ll[0].LogProb
		} else {
			text = append([]int32{bos}, text...)
			want, _ = refScore(t, m, []int32{bos}, text)
		}
		if math.Abs(roll[0].LogProb-want) > 1e-5 || roll[0].NumTokens != len(text) {
			t.Errorf("skip_leading_bos=%v: rolling %+v, want log-prob %.6f over %d tokens", skip, roll[0], want, len(text))
		}
	}
}

// TestPerplexityLlamaCpp checks the llama.cpp-style perplexity against
// per-token log-probs from full decodes of each chunk.
func TestPerplexityLlamaCpp(t *testing.T) {
	m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})
	text := strings.Repeat(storyText+" ", 3)
	const chunk = 32
	got, err := m.Perplexity(context.Background(), text, chunk)
	if err != nil {
		t.Fatal(err)
	}
	toks, _ := m.Tokenize(text, true, false)
	n := len(toks) / chunk
	nll, count := 0.0, 0
	for c := 0; c < n; c++ {
		ch := append([]int32(nil), toks[c*chunk:(c+1)*chunk]...)
		ch[0] = 1 // BOS starts every chunk
		rows, err := m.allLogits(ch)
		if err != nil {
			t.Fatal(err)
		}
		for j := chunk / 2; j < chunk-1; j++ {
			lp, _ := refLogSoftmax(rows[j], ch[j+1])
			nll -= lp
			count++
		}
	}
	if got.Chunks != n || got.Tokens != count || math.Abs(got.NLL-nll) > 1e-4 ||
		math.Abs(got.PPL-math.Exp(nll/float64(count))) > 1e-4*got.PPL {
		t.Fatalf("got %+v, want %d chunks, %d tokens, NLL %.6f", got, n, count, nll)
	}
	if _, err := m.Perplexity(context.Background(), "Lily", chunk); err == nil {
		t.Error("a text shorter than two chunks was accepted")
	}
}
