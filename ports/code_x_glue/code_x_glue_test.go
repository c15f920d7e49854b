package code_x_glue_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/code_x_glue"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
