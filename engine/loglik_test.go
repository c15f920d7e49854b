package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// refLogSoftmax is the independent computation: log-softmax of one row in
// float64.
func refLogSoftmax(row []float32, tok int32) (lp float64, isMax bool) {
	mx := math.Inf(-1)
	am := 0
	for i, v := range row {
		if float64(v) > mx {
			mx, am = float64(v), i
		}
	}
	s := 0.0
	for _, v := range row {
		s += math.Exp(float64(v) - mx)
	}
	return float64(row[tok]) - mx - math.Log(s), am == int(tok)
}

// refScore scores cont given ctxToks from one full-sequence decode with all
// logits fetched, truncating from the left as HFLM does.
func refScore(t *testing.T, m *Model, ctxToks, cont []int32) (float64, bool) {
	t.Helper()
	lp, greedy, _ := refScoreMargin(t, m, ctxToks, cont)
	return lp, greedy
}

// refScoreMargin is refScore with the greedy margin: the smallest distance,
// over the scored positions, between the continuation token's log-prob and
// the best other token's. Two decodes of the same tokens that differ by
// float noise agree on is_greedy unless the margin is within that noise.
func refScoreMargin(t *testing.T, m *Model, ctxToks, cont []int32) (lp float64, greedy bool, margin float64) {
	t.Helper()
	full := append(append([]int32{}, ctxToks...), cont...)
	if max := m.Settings().MaxLength; len(full) > max+1 {
		full = full[len(full)-(max+1):]
	}
	inp := full[:len(full)-1]
	rows, err := m.allLogits(inp)
	if err != nil {
		t.Fatal(err)
	}
	greedy, margin = true, math.Inf(1)
	for i, tok := range cont {
		row := rows[len(inp)-len(cont)+i]
		l, isMax := refLogSoftmax(row, tok)
		lp += l
		greedy = greedy && isMax
		other := math.Inf(-1)
		for j, v := range row {
			if int32(j) != tok {
				other = math.Max(other, float64(v))
			}
		}
		margin = math.Min(margin, math.Abs(float64(row[tok])-other))
	}
	return lp, greedy, margin
}

var llPairs = []LoglikelihoodRequest{
	{"Once upon a time", ", there was a little girl"},
	{"Once upon a time, there was a little girl named", " Lily"},
	{"Once upon a time, there was a little girl named", " Tom"},
	{"", "Once upon a time"},
	{"", "x"},
	{"The cat sat on the ", "mat"},          // trailing space moves to the continuation
	{"The dog   \t", "ran away."},           // several whitespace characters
	{"She said: ", "\"Hello!\""},            // punctuation
	{"Lily liked ", "ice cream 🍦 and café"}, // Unicode beyond the vocabulary: byte tokens
	{"Émile went to the", " park"},
	{"One day", ",\nthe sun was shining."},
	{"Tom had a big red ball. He", " threw it to his friend."},
	{"a", "b"},
	{"Once upon a ti", "me, there was"}, // a token may straddle the boundary
	{"He was very happ", "y and smiled"},
	{"The bird flew up into the sky and", " sang a song"},
	{"Mom said, \"", "Be careful!\""},
	{"1 2 3", " 4 5 6"},
	{strings.Repeat("The little boy played with his toy car every day. ", 6), "He was happy."}, // truncated with MaxLength 48
	{strings.Repeat("Lily and Ben went to the park. ", 8), " They played on the swings all afternoon and had fun."},
}

// TestEmptyContextScoresContinuationOnly: lm-eval's TemplateLM.loglikelihood
// gives an empty context the continuation tokenized with
// add_special_tokens=False, conditioned on [prefix_token_id]. The expected
// tokens come from the tokenizer directly (no BOS added) and the log-prob
// from a full decode of [BOS]+tokens.
func TestEmptyContextScoresContinuationOnly(t *testing.T) {
	m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})
	bos := m.Settings().BOS
	for _, text := range []string{"Once upon a time", "x", "<s>Once upon a time"} {
		cont, err := m.Tokenize(strings.TrimPrefix(text, "<s>"), false, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(cont) == 0 || cont[0] == bos {
			t.Fatalf("%q: tokenizing without special tokens gave %v", text, cont)
		}
		want, wantGreedy := refScore(t, m, []int32{bos}, cont)
		res, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{{"", text}})
		if err != nil {
			t.Fatal(err)
		}
		if r := res[0]; math.Abs(r.LogProb-want) > 1e-5 || r.IsGreedy != wantGreedy || r.NumTokens != len(cont) {
			t.Errorf("%q: got (%.6f, %v, %d tokens), want (%.6f, %v, %d tokens)", text, r.LogProb, r.IsGreedy, r.NumTokens, want, wantGreedy, len(cont))
		}
	}
}

func TestLoglikelihoodMatchesFullDecode(t *testing.T) {
	path := storiesPath(t)
	for _, tc := range []struct {
		name   string
		maxLen int
	}{{"full-context", 0}, {"max_length-48", 48}} {
		t.Run(tc.name, func(t *testing.T) {
			// An f32 KV cache makes attention exact float32, so batched and
			// one-sequence decodes agree to rounding.
			m := load(t, path, Options{TypeK: "f32", TypeV: "f32", MaxLength: tc.maxLen})
			// Each request alone: the sequence then sits in the same cache
			// cells as in the reference decode, so only the scoring differs.
			got := make([]LoglikelihoodResult, len(llPairs))
			for i, r := range llPairs {
				res, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{r})
				if err != nil {
					t.Fatal(err)
				}
				got[i] = res[0]
			}
			// All together: packing moves sequences to other cells, which
			// changes float32 summation order in attention (~1e-6 a token).
			packed, err := m.Loglikelihood(context.Background(), llPairs)
			if err != nil {
				t.Fatal(err)
			}
			truncated := 0
			worst, worstPacked := 0.0, 0.0
			for i, r := range llPairs {
				c, k, err := m.EncodePair(r.Context, r.Continuation)
				if err != nil {
					t.Fatal(err)
				}
				want, wantGreedy, margin := refScoreMargin(t, m, c, k)
				// is_greedy may differ only where the argmax is within the
				// log-prob tolerance of the continuation token.
				greedyOK := func(g bool, tol float64) bool { return g == wantGreedy || margin <= 2*tol }
				if math.Abs(got[i].LogProb-want) > 1e-5 || !greedyOK(got[i].IsGreedy, 1e-5) || got[i].NumTokens != len(k) {
					t.Errorf("%q + %q: got (%.7f, %v, %d), want (%.7f, %v, %d)", r.Context, r.Continuation,
						got[i].LogProb, got[i].IsGreedy, got[i].NumTokens, want, wantGreedy, len(k))
				}
				if math.Abs(packed[i].LogProb-want) > 1e-4 || !greedyOK(packed[i].IsGreedy, 1e-4) {
					t.Errorf("%q + %q packed: got (%.7f, %v), want (%.7f, %v)", r.Context, r.Continuation,
						packed[i].LogProb, packed[i].IsGreedy, want, wantGreedy)
				}
				worst = math.Max(worst, math.Abs(got[i].LogProb-want))
				worstPacked = math.Max(worstPacked, math.Abs(packed[i].LogProb-want))
				if got[i].LogProb >= 0 {
					t.Errorf("%q + %q: log-prob %v is not negative", r.Context, r.Continuation, got[i].LogProb)
				}
				wantTrunc := len(c)+len(k) > m.Settings().MaxLength+1
				if got[i].Truncated != wantTrunc {
					t.Errorf("%q: truncated = %v, want %v", r.Context, got[i].Truncated, wantTrunc)
				}
				if wantTrunc {
					truncated++
				}
			}
			if tc.maxLen > 0 && truncated == 0 {
				t.Errorf("max_length %d truncated nothing: the test does not exercise truncation", tc.maxLen)
			}
			if st := m.Stats(); st.Truncated != 2*truncated {
				t.Errorf("Stats.Truncated = %d, want %d", st.Truncated, 2*truncated)
			}
			t.Logf("largest difference from the reference: alone %.2g, packed %.2g", worst, worstPacked)
		})
	}
}

func TestLoglikelihoodGreedyContinuation(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	// The model's own greedy continuation is greedy by definition.
	res, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{
		{"Once upon a time", storiesRef},
		{"Once upon a time", ", there was a little boy named Lily."},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].IsGreedy {
		t.Errorf("the greedy continuation is not greedy: %+v", res[0])
	}
	if res[1].IsGreedy {
		t.Errorf("a changed continuation is greedy: %+v", res[1])
	}
	if res[0].LogProb <= res[1].LogProb {
		t.Errorf("greedy continuation %.4f not more likely than the changed one %.4f", res[0].LogProb, res[1].LogProb)
	}
}

func TestLoglikelihoodEmptyContinuation(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	// "time" is one token: the continuation "me" vanishes into the context's
	// last token, which lm-eval rejects (assert len(continuation_enc) > 0).
	_, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{{"Once upon a ti", "me"}})
	if !errors.Is(err, ErrEmptyContinuation) {
		t.Fatalf("err = %v, want ErrEmptyContinuation", err)
	}
}

// TestRequestError checks that a bad request is reported by its index in
// the call, with the request quoted, before anything is decoded.
func TestRequestError(t *testing.T) {
	m := load(t, storiesPath(t), Options{MaxLength: 64})
	ctx := context.Background()
	long := strings.TrimSpace(strings.Repeat("Lily went to the park. ", 10))
	for _, tc := range []struct {
		name  string
		call  func() error
		op    string
		index int
		is    error
		quote string
	}{
		{"empty continuation", func() error {
			_, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{{"Once", " upon"}, {"Once upon a ti", "me"}, {"A", " cat"}})
			return err
		}, "loglikelihood", 1, ErrEmptyContinuation, `context "Once upon a ti", continuation "me"`},
		{"long context quoted briefly", func() error {
			_, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{{"Once", " upon"}, {"Tom", " ran"}, {long, ""}})
			return err
		}, "loglikelihood", 2, ErrEmptyContinuation, `context "Lily went to the park. Lily went to the "..."went to the park. Lily went to the park.", continuation ""`},
		{"tokens", func() error {
			_, err := m.LoglikelihoodTokens(ctx, []TokenRequest{{[]int32{1, 400}, nil}})
			return err
		}, "loglikelihood", 0, ErrEmptyContinuation, "2 context tokens, 0 continuation tokens"},
		{"no room to generate", func() error {
			_, err := m.GenerateUntil(ctx, []GenerateRequest{{Context: "Once", MaxGenToks: 8}, {Context: "Tom", MaxGenToks: 64}})
			return err
		}, "generate_until", 1, nil, `context "Tom"`},
	} {
		before := m.Stats()
		err := tc.call()
		var re *RequestError
		if !errors.As(err, &re) || re.Op != tc.op || re.Index != tc.index || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: err = %#v, want a RequestError for %s request %d", tc.name, err, tc.op, tc.index)
			continue
		}
		if !strings.Contains(err.Error(), tc.quote) || !strings.Contains(err.Error(), fmt.Sprintf("request %d", tc.index)) {
			t.Errorf("%s: %q does not name the request (%s)", tc.name, err, tc.quote)
		}
		if after := m.Stats(); after.TokensDecoded != before.TokensDecoded || after.Requests != before.Requests {
			t.Errorf("%s: a refused call decoded %d tokens", tc.name, after.TokensDecoded-before.TokensDecoded)
		}
	}
}
