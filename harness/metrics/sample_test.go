package metrics

import (
	"github.com/lmeval/lmeval/harness/model"
	"math"
	"testing"
)

func specs(t *testing.T, outputType model.OutputType, names ...string) []Spec {
	t.Helper()
	var out []Spec
	for _, n := range names {
		s := NewSpec(n, false)
		if s.Aggregation == "" {
			t.Fatalf("%s: not a registered metric", n)
		}
		out = append(out, s)
	}
	return out
}

func TestScoreMultipleChoice(t *testing.T) {
	sp := specs(t, model.OutputMultipleChoice, "acc", "acc_norm", "acc_bytes", "exact_match", "f1", "mcc", "brier_score", "acc_mutual_info", "mrr", "recall_at_2")
	// choice lengths: "a"=1 rune, "bbbb"=4, "é"=1 rune/2 bytes
	r := MultipleChoiceResult{
		LogLiks:       []float64{-2, -4, -2.5},
		IsGreedy:      []bool{false, true, false},
		Choices:       []string{"a", "bbbb", "é"},
		Gold:          []int{1},
		Unconditional: []float64{-1, -4, -2},
	}
	got, err := ScoreMultipleChoice(sp, r)
	if err != nil {
		t.Fatal(err)
	}
	// argmax lls = 0; per char: -2, -1, -2.5 -> 1; per byte: -2, -1, -1.25 -> 1
	// mutual info: -1, 0, -0.5 -> 1; ranks: gold ll -4 is last -> mrr 1/3
	e0, e1, e2 := math.Exp(0.0), math.Exp(-2.0), math.Exp(-0.5)
	s := e0 + e1 + e2
	want := map[string]any{
		"acc": 0.0, "acc_norm": 1.0, "acc_bytes": 1.0, "exact_match": 1.0,
		"f1": Pair{1, 0}, "mcc": Pair{1, 0},
		"acc_mutual_info": 1.0, "mrr": 1.0 / 3.0, "recall_at_2": 0.0,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	b := got["brier_score"].(Brier)
	for i, p := range []float64{e0 / s, e1 / s, e2 / s} {
		if !near(b.Probs[i], p, 1e-15) {
			t.Errorf("brier probs[%d] = %v, want %v", i, b.Probs[i], p)
		}
	}
	// multiple targets: acc when the prediction is any gold
	r.Gold, r.Multiple = []int{0, 2}, true
	got, _ = ScoreMultipleChoice(specs(t, model.OutputMultipleChoice, "acc", "recall_at_2"), r)
	if got["acc"] != 1.0 || got["recall_at_2"] != 1.0 {
		t.Errorf("multiple target: %v", got)
	}
}

func TestGoldIndices(t *testing.T) {
	choices := []string{"x", "y"}
	for _, tc := range []struct {
		gold  any
		want  []int
		multi bool
	}{
		{int64(1), []int{1}, false},
		{5, []int{-100}, false},
		{"y", []int{1}, false},
		{"z", []int{-100}, false},
		{[]any{int64(0), 3}, []int{0, -100}, true},
	} {
		got, multi, err := GoldIndices(tc.gold, choices)
		if err != nil || multi != tc.multi || len(got) != len(tc.want) {
			t.Errorf("GoldIndices(%v) = %v, %v, %v", tc.gold, got, multi, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("GoldIndices(%v) = %v, want %v", tc.gold, got, tc.want)
			}
		}
	}
}

func TestRecallAndMRR(t *testing.T) {
	lls := []float64{-1, -3, -2, -3}
	for _, tc := range []struct {
		golds []int
		k     int
		want  float64
	}{
		{[]int{0}, 1, 1}, {[]int{2}, 1, 0}, {[]int{2}, 2, 1},
		{[]int{3}, 3, 1}, // tie -3,-3: later index ranks first (argsort reversed)
		{[]int{1}, 3, 0},
	} {
		if got := RecallAtK(lls, tc.golds, tc.k); got != tc.want {
			t.Errorf("RecallAtK(%v, %d) = %v, want %v", tc.golds, tc.k, got, tc.want)
		}
	}
	if got := MRR(lls, []int{1}); got != 1.0/3.0 {
		t.Errorf("MRR tie = %v, want 1/3 (sorted desc: -1,-2,-3,-3; first -3 at 2)", got)
	}
	if got := MRR(lls, []int{2, 1}); got != 0.5 {
		t.Errorf("MRR best gold = %v, want 1/2", got)
	}
}

func TestRolling(t *testing.T) {
	sp := specs(t, model.OutputLoglikelihoodRolling, "word_perplexity", "byte_perplexity", "bits_per_byte")
	// re.split(r"\s+", " a  b\u00a0c ") -> ['', 'a', 'b', 'c', ''] : 5
	target := " a  b\u00a0c "
	got := ScoreRolling(sp, -7, target)
	if got["word_perplexity"] != (Weighted{-7, 5}) || got["byte_perplexity"] != (Weighted{-7, 9}) || got["bits_per_byte"] != (Weighted{-7, 9}) {
		t.Errorf("ScoreRolling = %v", got)
	}
	if CountWords("one") != 1 || CountWords("") != 1 {
		t.Error("CountWords: re.split on a string without whitespace gives one piece")
	}
	ll := ScoreLoglikelihood(specs(t, model.OutputLoglikelihood, "perplexity", "acc"), -1.5, true)
	if ll["perplexity"] != -1.5 || ll["acc"] != 1.0 {
		t.Errorf("ScoreLoglikelihood = %v", ll)
	}
}

func TestExactMatchOptions(t *testing.T) {
	for _, tc := range []struct {
		kwargs     map[string]any
		pred, gold string
		want       float64
	}{
		{nil, "Paris", "Paris", 1},
		{nil, "paris", "Paris", 0},
		{map[string]any{"ignore_case": true}, "PARIS", "paris", 1},
		{map[string]any{"ignore_punctuation": true}, "Paris!", "Paris", 1},
		{map[string]any{"ignore_punctuation": true}, "Paris¡", "Paris", 0}, // string.punctuation is ASCII
		{map[string]any{"ignore_numbers": true}, "a1b2", "ab", 1},
		{map[string]any{"regexes_to_ignore": []any{",", `\$`, `(?s).*#### `}}, "so #### $1,000", "1000", 1},
	} {
		o, err := ParseExactMatchOptions(tc.kwargs)
		if err != nil {
			t.Fatal(err)
		}
		if got := ExactMatch(tc.pred, tc.gold, o); got != tc.want {
			t.Errorf("ExactMatch(%q, %q, %v) = %v, want %v", tc.pred, tc.gold, tc.kwargs, got, tc.want)
		}
	}
	if _, err := ParseExactMatchOptions(map[string]any{"ignore_cases": true}); err == nil {
		t.Error("unknown option: want an error")
	}
}

func TestHELMMetrics(t *testing.T) {
	if NormalizeHELM("The  Cat, an apple!") != "cat apple" {
		t.Errorf("NormalizeHELM = %q", NormalizeHELM("The  Cat, an apple!"))
	}
	if QuasiExactMatch("  the answer: Paris.", "answer paris") != 1 {
		t.Error("quasi_exact_match")
	}
	if PrefixExactMatch(" Paris, France", "Paris ") != 1 || PrefixExactMatch("", "") != 0 || PrefixExactMatch("Pa", "Paris") != 0 {
		t.Error("prefix_exact_match")
	}
	// pred {cat, sat, mat}, gold {cat, on, mat}: P = R = 2/3
	if got := WordF1("the cat sat mat", "a cat on the mat"); !near(got, 2.0/3.0, 1e-12) {
		t.Errorf("WordF1 = %v, want 2/3", got)
	}
	if WordF1("the", "cat") != 0 {
		t.Error("WordF1 with no words after normalisation must be 0")
	}
}

func TestScoreGeneration(t *testing.T) {
	sp := specs(t, model.OutputGenerateUntil, "exact_match", "quasi_exact_match", "word_f1", "bleu")
	sp[0].Kwargs["ignore_case"] = true
	got, err := ScoreGeneration(sp, []string{"The cat"}, false, "the CAT")
	if err != nil {
		t.Fatal(err)
	}
	if got["exact_match"] != 1.0 || got["quasi_exact_match"] != 1.0 || got["word_f1"] != 1.0 {
		t.Errorf("single target: %v", got)
	}
	if rp := got["bleu"].(RefPred); rp.Pred != "the CAT" || len(rp.Refs) != 1 {
		t.Errorf("bleu item = %+v", rp)
	}
	got, _ = ScoreGeneration(sp, []string{"dog", "a cat sat"}, true, "cat")
	if got["exact_match"] != 0.0 || got["quasi_exact_match"] != 0.0 || !near(got["word_f1"].(float64), 2.0/3.0, 1e-12) {
		t.Errorf("multiple targets: %v", got)
	}
}
