package tmmluplus

import (
	"testing"

	"lmeval/ports/internal/vectortest"
)

func TestVectors(t *testing.T) { vectortest.Run(t, "testdata/vectors.json") }
