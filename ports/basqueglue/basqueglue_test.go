package basqueglue_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/basqueglue"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
