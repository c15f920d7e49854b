package basqueglue_test

import (
	"testing"

	_ "lmeval/ports/basqueglue"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
