package wsc273_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/wsc273"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
