package code_x_glue_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/code_x_glue"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
