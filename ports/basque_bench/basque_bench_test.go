package basque_bench_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/basque_bench"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
