package spanish_bench_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/spanish_bench"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
