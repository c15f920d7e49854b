package wmt2016_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/wmt2016"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
