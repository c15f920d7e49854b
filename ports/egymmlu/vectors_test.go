package egymmlu_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/darijammlu" // egymmlu's doc_to_choice
	_ "github.com/lmeval/lmeval/ports/egymmlu"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers (ports/darijammlu/testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.Run(t, "testdata/vectors.json", "egymmlu/utils.py:doc_to_text", "egymmlu/utils.py:doc_to_choice")
}
