package mediqa_qa2019_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/mediqa_qa2019"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
