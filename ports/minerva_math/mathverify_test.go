package minerva_math

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/mathvectors"
)

// TestMathVerifyAgreement measures MathVerify, lmeval's approximation of
// Hugging Face math_verify, against the real math_verify's verdicts on the
// generated pairs (gen_mathverify_vectors.py). It is not exact: the test
// holds the measured agreement so that it cannot silently get worse.
func TestMathVerifyAgreement(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	n, diff := 0, 0
	for _, p := range pairs {
		if p.MVV < 0 {
			continue // math_verify raised
		}
		n++
		got := MathVerify(p.Solution, p.Completion)
		if got != (p.MVV == 1) {
			diff++
			t.Logf("math_verify(%q, %q) = %d, lmeval %v", p.Solution, p.Completion, p.MVV, got)
		}
	}
	t.Logf("%d pairs: MathVerify agrees with math_verify on %d (%.2f%%)", n, n-diff, 100*float64(n-diff)/float64(n))
	if float64(diff) > 0.09*float64(n) {
		t.Errorf("MathVerify agrees with math_verify on fewer than 91%% of %d pairs (%d differ)", n, diff)
	}
}
