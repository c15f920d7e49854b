package french_bench_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/french_bench"
	"github.com/lmeval/lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
