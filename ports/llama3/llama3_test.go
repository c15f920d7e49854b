package llama3_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/llama3"
)

// TestVectors replays calls of lm-eval's own functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
