package mimic_repsum_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/mimic_repsum"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
