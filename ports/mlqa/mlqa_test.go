package mlqa_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/mlqa"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
