package webqs_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/webqs"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
