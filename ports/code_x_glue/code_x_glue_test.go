package code_x_glue_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/code_x_glue"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
