package darijahellaswag_test

import (
	"testing"

	_ "lmeval/ports/darijahellaswag"
	"lmeval/ports/internal/portvectors"
)

// TestVectors replays lm-eval's own process_docs (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	portvectors.Run(t, "testdata/vectors.json", "darijahellaswag/utils.py:process_docs", "egyhellaswag/utils.py:process_docs")
}
