package icelandic_winogrande_test

import (
	"testing"

	_ "lmeval/ports/icelandic_winogrande"
	_ "lmeval/tasks" // winogrande's ports
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
