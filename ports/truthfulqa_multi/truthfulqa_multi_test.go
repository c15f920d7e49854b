package truthfulqa_multi_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/truthfulqa_multi"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
