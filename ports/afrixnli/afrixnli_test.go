package afrixnli

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// testdata/vectors.json: every afrixnli utils.py function a YAML names,
// called by lm-eval on documents reaching each label (and a KeyError).
func TestVectors(t *testing.T) {
	if vs := vectest.Run(t, "testdata/vectors.json"); len(vs) < 80 {
		t.Fatalf("%d vectors, want at least 80", len(vs))
	}
}
