package pubmedqa_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/pubmedqa"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
