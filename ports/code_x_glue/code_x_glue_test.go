package code_x_glue_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/code_x_glue"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
