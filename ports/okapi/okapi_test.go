package okapi_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/benchmarks" // the ports of okapi's helpers that are truthfulqa's and hellaswag's source
	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/okapi"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
