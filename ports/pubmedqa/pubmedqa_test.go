package pubmedqa_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/pubmedqa"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
