package xquad_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/xquad"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
