package mimic_repsum_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/mimic_repsum"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
