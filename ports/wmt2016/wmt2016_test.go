package wmt2016_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/wmt2016"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
