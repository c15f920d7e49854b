package galician_bench_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/galician_bench"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
