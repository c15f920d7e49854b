package discrim_eval_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/discrim_eval"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays calls of lm-eval's own functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
