package medtext_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/medtext"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
