package meqsum_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/meqsum"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
