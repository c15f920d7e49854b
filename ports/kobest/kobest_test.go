package kobest_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/f1score"
	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/kobest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }

// TestCommonVectors replays the aggregations' vectors of the common
// generator (ports/testdata/gen_vectors.py), which the sklearn f1 ports of
// ports/f1score serve (the same source in every file).
func TestCommonVectors(t *testing.T) { vectest.Run(t, "testdata/vectors_common.json") }
