package acpbench_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/acpbench"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
