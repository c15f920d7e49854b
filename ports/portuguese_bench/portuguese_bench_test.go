package portuguese_bench_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/portuguese_bench"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
