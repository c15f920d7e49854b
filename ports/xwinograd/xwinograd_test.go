package xwinograd_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/xwinograd"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
