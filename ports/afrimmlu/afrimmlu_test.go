package afrimmlu

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/portvectors"
)

// testdata/vectors.json: every afrimmlu utils.py function a YAML names,
// called by lm-eval (ports/afrixnli/testdata/gen_vectors.py afrimmlu).
func TestVectors(t *testing.T) { portvectors.Replay(t, "testdata/vectors.json", 100) }
