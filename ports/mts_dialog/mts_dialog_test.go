package mts_dialog_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/mts_dialog"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
