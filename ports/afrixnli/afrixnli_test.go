package afrixnli

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/portvectors"
)

// testdata/vectors.json: every afrixnli utils.py function a YAML names,
// called by lm-eval on documents reaching each label (and a KeyError).
func TestVectors(t *testing.T) { portvectors.Replay(t, "testdata/vectors.json", 80) }
