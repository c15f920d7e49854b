package icelandic_winogrande_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/icelandic_winogrande"
	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/winogrande" // winogrande's ports
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
