package truthfulqa_multi_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/truthfulqa_multi"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
