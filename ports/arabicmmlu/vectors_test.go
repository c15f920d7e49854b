package arabicmmlu_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/arabicmmlu"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.Run(t, "testdata/vectors.json", "arabicmmlu/utils.py:doc_to_text", "arabicmmlu/utils.py:doc_to_choice")
}
