package olaph_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/olaph"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
