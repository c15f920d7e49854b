package winogender_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/winogender"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
