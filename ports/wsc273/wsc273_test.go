package wsc273_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/wsc273"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
