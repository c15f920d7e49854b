package acpbench_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/acpbench"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
