package wmt2016_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/wmt2016"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
