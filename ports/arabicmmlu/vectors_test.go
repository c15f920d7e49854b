package arabicmmlu_test

import (
	"testing"

	_ "lmeval/ports/arabicmmlu"
	"lmeval/ports/internal/portvectors"
)

// TestVectors replays lm-eval's own helpers (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	portvectors.Run(t, "testdata/vectors.json", "arabicmmlu/utils.py:doc_to_text", "arabicmmlu/utils.py:doc_to_choice")
}
