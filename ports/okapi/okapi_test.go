package okapi_test

import (
	"testing"

	"lmeval/ports/internal/vectors"
	_ "lmeval/ports/okapi"
	_ "lmeval/tasks" // the ports of okapi's helpers that are truthfulqa's and hellaswag's source
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
