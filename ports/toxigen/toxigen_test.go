package toxigen_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/toxigen"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
