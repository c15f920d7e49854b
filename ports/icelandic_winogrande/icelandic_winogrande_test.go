package icelandic_winogrande_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/icelandic_winogrande"
	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/winogrande" // winogrande's ports
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
