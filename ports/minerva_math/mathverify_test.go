package minerva_math

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/mathvectors"
)

// TestMathVerifyAgreement measures MathVerify (minerva_math's math_verify)
// and MathVerifyLatexGold (leaderboard/math's exact_match) against the
// real math_verify's verdicts on the generated pairs
// (gen_mathverify_vectors.py). The pairs where they differ are logged and
// listed, with their reasons, in docs/math.md.
func TestMathVerifyAgreement(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fn   func(gold, pred string) bool
		want func(p mathvectors.Pair) int
	}{
		{"MathVerify", MathVerify, func(p mathvectors.Pair) int { return p.MVV }},
		{"MathVerifyLatexGold", MathVerifyLatexGold, func(p mathvectors.Pair) int { return p.LBV }},
	} {
		n, diff := 0, 0
		for _, p := range pairs {
			want := c.want(p)
			if want < 0 {
				continue // math_verify raised
			}
			n++
			if got := c.fn(p.Solution, p.Completion); got != (want == 1) {
				diff++
				t.Logf("%s: math_verify(%q, %q) = %d, lmeval %v", c.name, p.Solution, p.Completion, want, got)
			}
		}
		t.Logf("%d pairs: %s agrees with math_verify on %d (%.2f%%)", n, c.name, n-diff, 100*float64(n-diff)/float64(n))
		if float64(diff) > 0.005*float64(n) {
			t.Errorf("%s agrees with math_verify on fewer than 99.5%% of %d pairs (%d differ)", c.name, n, diff)
		}
	}
}
