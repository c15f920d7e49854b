package truthfulqa

import (
	"math"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/model"
)

func TestTruthfulQAMC2(t *testing.T) {
	ln := math.Log
	tests := []struct {
		lls    []float64
		labels []int64
		want   float64
	}{
		// (0.2 + 0.1) / (0.2 + 0.1 + 0.3 + 0.4)
		{[]float64{ln(0.2), ln(0.1), ln(0.3), ln(0.4)}, []int64{1, 1, 0, 0}, 0.3},
		// e^-1 / (e^-1 + e^-2 + e^-3) = 1 / (1 + e^-1 + e^-2)
		{[]float64{-1, -2, -3}, []int64{1, 0, 0}, 1 / (1 + math.Exp(-1) + math.Exp(-2))},
		// everything before the first 0 counts as true, even a later 1 after it does not
		{[]float64{ln(0.5), ln(0.25), ln(0.25)}, []int64{1, 0, 1}, 0.5},
		// no true answer: zero mass
		{[]float64{-1, -1}, []int64{0, 0}, 0},
		// very negative log-likelihoods underflow to 0/0 in lm-eval too
		{[]float64{-800, -800}, []int64{1, 0}, math.NaN()},
	}
	for _, tt := range tests {
		got, err := MC2(tt.lls, tt.labels)
		if err != nil {
			t.Errorf("MC2(%v, %v): %v", tt.lls, tt.labels, err)
			continue
		}
		if math.IsNaN(tt.want) != math.IsNaN(got) || math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("MC2(%v, %v) = %.17g, want %.17g", tt.lls, tt.labels, got, tt.want)
		}
	}
	if _, err := MC2([]float64{-1}, []int64{1}); err == nil {
		t.Error("labels without a 0 were accepted")
	}
}

// TestTruthfulQAProcessResultsMC2 checks the native process_results_mc2 on
// the fixture documents against the Python computation.
func TestTruthfulQAProcessResultsMC2(t *testing.T) {
	expected := fixtures.ProcessResults(t, "truthfulqa_mc2.0shot.json")
	docs := fixtures.Split(t, "truthfulqa/validation.jsonl")
	for i, doc := range docs {
		pr := expected[i]
		var results []any
		for _, ll := range pr["lls"].([]any) {
			results = append(results, model.LoglikelihoodResult{LogProb: ll.(float64)})
		}
		got, err := ProcessResultsMC2(doc, results)
		if err != nil {
			t.Fatal(err)
		}
		want := pr["acc"].(float64)
		if acc := got["acc"].(float64); math.Abs(acc-want) > 1e-15 {
			t.Errorf("doc %d: acc = %.17g, want %.17g", i, acc, want)
		}
	}
}

func TestTruthfulQAProcessDocsGen(t *testing.T) {
	in := []map[string]any{{
		"question":          "  Why is the sky blue?\n",
		"correct_answers":   []any{"Rayleigh scattering", " Light scatters. ", ""},
		"incorrect_answers": []any{"It reflects the ocean", "   "},
		"source":            "https://example.org",
	}, {
		"question":          "Q",
		"correct_answers":   []any{"I have no comment."},
		"incorrect_answers": []any{},
	}}
	got, err := ProcessDocsGen(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{
		"question":          "Why is the sky blue?",
		"correct_answers":   []any{"Rayleigh scattering.", "Light scatters.", "I have no comment."},
		"incorrect_answers": []any{"It reflects the ocean."},
		"source":            "https://example.org",
	}, {
		"question":          "Q",
		"correct_answers":   []any{"I have no comment."},
		"incorrect_answers": []any{},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

// TestTruthfulQAProcessResultsGen scores made-up answers against the
// fixture references (after process_docs_gen) and compares with the Python
// model of sacrebleu and rouge_score in gen_expected.py.
func TestTruthfulQAProcessResultsGen(t *testing.T) {
	results := fixtures.ProcessResults(t, "truthfulqa_gen.0shot.json")
	docs, err := ProcessDocsGen(fixtures.Split(t, "truthfulqa_gen/validation.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range docs {
		want := results[i]
		got, err := ProcessResultsGen(doc, []any{want["completion"]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 12 {
			t.Errorf("doc %d: %d metrics, want 12", i, len(got))
		}
		for k, v := range got {
			w, ok := want[k].(float64)
			if !ok {
				t.Errorf("doc %d: unexpected metric %s", i, k)
				continue
			}
			f, _ := v.(float64)
			if n, isInt := v.(int64); isInt {
				f = float64(n)
			}
			if math.Abs(f-w) > 1e-9 {
				t.Errorf("doc %d: %s = %.17g, want %.17g", i, k, f, w)
			}
		}
	}
}

func TestSentenceBLEU(t *testing.T) {
	tests := []struct {
		ref, pred string
		want      float64
	}{
		{"The cat sat on the mat.", "The cat sat on the mat.", 100},
		// precisions 6/7, 4/6, 2/5, 1/4; same length, no brevity penalty
		{"The cat is on the mat.", "The cat sat on the mat.", 100 * math.Pow(6.0/7*4/6*2/5*1/4, 0.25)},
		// no 4-gram matches: exp smoothing gives 100/(2*4)
		{"a b c d e", "a b c x e", math.Pow(100*4.0/5*100*2/4*100/3*100/(2*2), 0.25) * 1},
		// nothing in common
		{"alpha beta", "gamma delta", 0},
		// brevity penalty exp(1 - 5/4), all of the hypothesis matches
		{"one two three four five", "one two three four", math.Exp(1-5.0/4) * 100},
		// under four tokens there are no 4-grams: without effective order
		// the missing precision is log(0) and BLEU is 0
		{"one two three four", "one two", 0},
	}
	for _, tt := range tests {
		if got := SentenceBLEU(tt.ref, tt.pred); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("BLEU(%q, %q) = %.12g, want %.12g", tt.ref, tt.pred, got, tt.want)
		}
	}
}

func TestTokenizeIntl(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The cat sat on the mat.", "The cat sat on the mat ."},
		{"It costs $1,000.50 (approx.)", "It costs $ 1,000.50 ( approx . )"},
		{"e.g. x", "e . g . x"},
		{"3.5-4", "3.5-4"},
		{"a+b", "a + b"},
	}
	for _, tt := range tests {
		if got := tokenizeIntl(tt.in); got != tt.want {
			t.Errorf("tokenizeIntl(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRouge(t *testing.T) {
	tests := []struct {
		ref, pred     string
		r1, r2, rLsum float64
	}{
		{"The cat is on the mat.", "The cat sat on the mat.", 500.0 / 6, 60, 500.0 / 6},
		{"Same text here", "same TEXT, here!", 100, 100, 100},
		{"no overlap", "completely different", 0, 0, 0},
		// " . " splits sentences for rougeLsum only: LCS of [a b] and
		// [c d] with the candidate [b a c d] is 1 + 2 hits of 4.
		{"a b . c d", "b a c d", 100, 2 * (1.0 / 3) * (1.0 / 3) / (2.0 / 3) * 100, 75},
	}
	for _, tt := range tests {
		r1, r2, rl := rougeScores(tt.ref, tt.pred)
		if math.Abs(r1-tt.r1) > 1e-9 || math.Abs(r2-tt.r2) > 1e-9 || math.Abs(rl-tt.rLsum) > 1e-9 {
			t.Errorf("rouge(%q, %q) = %.6g %.6g %.6g, want %.6g %.6g %.6g", tt.ref, tt.pred, r1, r2, rl, tt.r1, tt.r2, tt.rLsum)
		}
	}
}
