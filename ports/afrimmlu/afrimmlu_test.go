package afrimmlu

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// testdata/vectors.json: every afrimmlu utils.py function a YAML names,
// called by lm-eval (ports/afrixnli/testdata/gen_vectors.py afrimmlu).
func TestVectors(t *testing.T) {
	if vs := vectest.Run(t, "testdata/vectors.json"); len(vs) < 100 {
		t.Fatalf("%d vectors, want at least 100", len(vs))
	}
}
