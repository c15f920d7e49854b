package winogender_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/winogender"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
