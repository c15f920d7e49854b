package meqsum_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/meqsum"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
