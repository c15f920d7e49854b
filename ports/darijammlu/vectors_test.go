package darijammlu_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/darijammlu"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.Run(t, "testdata/vectors.json", "darijammlu/utils.py:doc_to_text", "darijammlu/utils.py:doc_to_choice")
}
