package crows_pairs_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/crows_pairs"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
