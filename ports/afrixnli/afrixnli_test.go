package afrixnli

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/f1score"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// testdata/vectors.json: every afrixnli utils.py function a YAML names,
// called by lm-eval on documents reaching each label (and a KeyError).
func TestVectors(t *testing.T) {
	if vs := vectest.Run(t, "testdata/vectors.json"); len(vs) < 80 {
		t.Fatalf("%d vectors, want at least 80", len(vs))
	}
}

// TestCommonVectors replays the aggregations' vectors of the common
// generator (ports/testdata/gen_vectors.py), which the sklearn f1 ports of
// ports/f1score serve (the same source in every file).
func TestCommonVectors(t *testing.T) { vectest.Run(t, "testdata/vectors_common.json") }
