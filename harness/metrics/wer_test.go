package metrics

import "testing"

// The cases of evaluate's wer documentation and jiwer's README, and the
// whitespace rules of jiwer's default transformation.
func TestWER(t *testing.T) {
	for _, tc := range []struct {
		pred, ref string
		want      float64
	}{
		{"this is the prediction", "this is the reference", 0.25},
		{"there is an other sample", "there is another one", 0.75},
		{"hello duck", "hello world", 0.5},
		{"hello world", "hello world", 0},
		{"", "hello world", 1},
		{"a b c d", "a", 3},
		{"  hello\t\tworld  ", "hello world", 0},
		{"hello\tworld", "hello world", 1}, // a single tab is not a word boundary
		{"b a", "a b", 1},
	} {
		got, err := WER(tc.pred, tc.ref)
		if err != nil || got != tc.want {
			t.Errorf("WER(%q, %q) = %v, %v; want %v", tc.pred, tc.ref, got, err, tc.want)
		}
	}
	if _, err := WER("x", "   "); err == nil {
		t.Error("an empty reference: want an error")
	}
}
