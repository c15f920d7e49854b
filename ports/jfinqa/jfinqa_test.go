package jfinqa_test

import (
	"testing"

	"lmeval/ports/internal/vectest"
	_ "lmeval/ports/jfinqa"
)

// TestVectors replays calls of lm-eval's own functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
