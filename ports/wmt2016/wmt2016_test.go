package wmt2016_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/wmt2016"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
