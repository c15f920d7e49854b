package nerel_bench_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/nerel_bench"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
