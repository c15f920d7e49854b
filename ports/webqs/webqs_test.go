package webqs_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/webqs"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
