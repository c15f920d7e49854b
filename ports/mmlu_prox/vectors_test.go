package mmlu_prox

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays calls of lm-eval's own helpers
// (ports/testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors_common.json") }
