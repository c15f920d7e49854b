package paloma_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/paloma"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
