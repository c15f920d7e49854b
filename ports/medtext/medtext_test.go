package medtext_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/medtext"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
