package mts_dialog_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/mts_dialog"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
