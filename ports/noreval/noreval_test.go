package noreval_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/noreval"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
