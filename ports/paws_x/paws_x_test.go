package paws_x_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/paws_x"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
