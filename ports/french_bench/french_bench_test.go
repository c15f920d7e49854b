package french_bench_test

import (
	"testing"

	_ "lmeval/ports/french_bench"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
