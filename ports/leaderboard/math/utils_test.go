package leaderboardmath

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/mathvectors"
)

// TestAgreementWithLMEval replays the generated (output, solution) pairs
// through process_result_v1 (exact_match_original) and compares with
// lm-eval's verdicts (sympy parse_latex + simplify).
func TestAgreementWithLMEval(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for _, p := range pairs {
		docs, err := ProcessDocs([]map[string]any{{"problem": "p", "solution": p.Solution, "level": "Level 5"}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := ProcessResults(docs[0], []any{p.Completion})
		if err != nil {
			t.Fatal(err)
		}
		if r["exact_match_original"] != p.LB {
			diff++
			t.Logf("output %q gold %q: exact_match_original %v, lm-eval %d", p.Completion, p.Gold, r["exact_match_original"], p.LB)
		}
	}
	n := len(pairs)
	t.Logf("%d pairs: exact_match_original agrees on %d (%.2f%%)", n, n-diff, 100*float64(n-diff)/float64(n))
	if float64(diff) > 0.005*float64(n) {
		t.Errorf("agreement below 99.5%%: %d differences in %d pairs", diff, n)
	}
}

func TestProcessDocsKeepsLevel5(t *testing.T) {
	docs := []map[string]any{
		{"problem": "a", "solution": "$\\boxed{1}$", "level": "Level 5", "type": "Algebra"},
		{"problem": "b", "solution": "$\\boxed{2}$", "level": "Level 4", "type": "Algebra"},
		{"problem": "c", "solution": "no box", "level": "Level 5", "type": "Algebra"},
	}
	out, err := ProcessDocs(docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0]["answer"] != "1" || out[1]["answer"] != InvalidAnswer || out[0]["type"] != "Algebra" {
		t.Errorf("ProcessDocs = %v", out)
	}
}
