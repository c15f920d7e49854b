package paloma_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/paloma"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
