package mts_dialog_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/mts_dialog"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
