package super_glue_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/super_glue"
)

// TestVectors replays calls of lm-eval's own super_glue functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
