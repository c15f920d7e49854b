package darijahellaswag_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/darijahellaswag"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own process_docs (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.Run(t, "testdata/vectors.json", "darijahellaswag/utils.py:process_docs", "egyhellaswag/utils.py:process_docs")
}
