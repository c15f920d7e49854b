package olaph_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/olaph"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
