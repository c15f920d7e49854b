package toxigen_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/toxigen"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
