package icelandic_winogrande_test

import (
	"testing"

	_ "lmeval/ports/icelandic_winogrande"
	"lmeval/ports/internal/vectors"
	_ "lmeval/tasks" // winogrande's ports
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
