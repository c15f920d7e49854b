package noreval_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/noreval"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
