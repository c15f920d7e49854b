package kobest_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/kobest"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
