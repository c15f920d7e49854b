package minerva_math

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/mathvectors"
)

// TestAgreementWithLMEval replays the generated (output, solution) pairs
// through process_results' exact_match and is_equiv and compares with
// lm-eval's verdicts (sympy parse_latex + simplify).
func TestAgreementWithLMEval(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	var emDiff, eqDiff int
	for _, p := range pairs {
		docs, err := ProcessDocs([]map[string]any{{"problem": "p", "solution": p.Solution}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := ProcessResults(docs[0], []any{p.Completion})
		if err != nil {
			t.Fatal(err)
		}
		if r["exact_match"] != p.MV {
			emDiff++
			t.Logf("exact_match differs: output %q gold %q: lm-eval %d", p.Completion, p.Gold, p.MV)
		}
		if got := IsEquiv(p.Answer, p.Gold); got != (p.EQ == 1) {
			eqDiff++
			t.Logf("is_equiv(%q, %q) = %v, lm-eval %d", p.Answer, p.Gold, got, p.EQ)
		}
	}
	n := len(pairs)
	t.Logf("%d pairs: exact_match agrees on %d (%.2f%%), is_equiv on %d (%.2f%%)",
		n, n-emDiff, 100*float64(n-emDiff)/float64(n), n-eqDiff, 100*float64(n-eqDiff)/float64(n))
	if float64(emDiff) > 0.005*float64(n) || float64(eqDiff) > 0.005*float64(n) {
		t.Errorf("agreement below 99.5%%: %d exact_match and %d is_equiv differences in %d pairs", emDiff, eqDiff, n)
	}
}
