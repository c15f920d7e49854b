package hendrycks_math

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/mathvectors"
)

// TestAgreementWithLMEval replays the generated (output, solution) pairs
// through process_results and compares with lm-eval's exact_match. The
// port is a string transcription, so every verdict must agree.
func TestAgreementWithLMEval(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for _, p := range pairs {
		docs, err := ProcessDocs([]map[string]any{{"problem": "p", "solution": p.Solution}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := ProcessResults(docs[0], []any{p.Completion})
		if err != nil {
			t.Fatal(err)
		}
		if r["exact_match"] != p.HM {
			diff++
			t.Errorf("output %q, solution %q: exact_match %v, lm-eval %d", p.Completion, p.Solution, r["exact_match"], p.HM)
		}
	}
	t.Logf("%d pairs, %d differ", len(pairs), diff)
}

func TestStripString(t *testing.T) {
	// expected values from lm-eval's hendrycks_math/utils.py strip_string
	// (an error where it raises)
	for _, c := range []struct {
		in, want string
		raises   bool
	}{
		{in: "\\dfrac{1}{2}", want: "\\frac{1}{2}"},
		{in: "0.5", want: "\\frac{1}{2}"},
		{in: "x = 3", want: "3"},
		{in: "\\frac12", want: "\\frac{1}{2}"},
		{in: "\\sqrt2", want: "\\sqrt{2}"},
		{in: "3/4", want: "\\frac{3}{4}"},
		{in: "x/4", raises: true},
		{in: "5\\text{ cm}", want: "5"},
		{in: "5\\text{ cm}\\text{ m}", raises: true},
		{in: "\\sqrt", raises: true},
		{in: "\\frac", raises: true},
		{in: ".5", want: "\\frac{1}{2}"},
		{in: "10\\%", want: "10"},
		{in: "\\left( 1, 2 \\right)", want: "(1,2)"},
	} {
		got, err := StripString(c.in)
		if (err != nil) != c.raises || err == nil && got != c.want {
			t.Errorf("StripString(%q) = %q, %v; want %q (raises %v)", c.in, got, err, c.want, c.raises)
		}
	}
}
