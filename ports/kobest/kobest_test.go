package kobest_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/kobest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
