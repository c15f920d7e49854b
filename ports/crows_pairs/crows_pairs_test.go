package crows_pairs_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/crows_pairs"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
