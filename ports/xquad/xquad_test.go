package xquad_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/xquad"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
