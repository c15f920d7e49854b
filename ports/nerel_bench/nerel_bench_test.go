package nerel_bench_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/nerel_bench"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
