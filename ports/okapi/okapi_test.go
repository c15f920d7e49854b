package okapi_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/okapi"
	_ "github.com/lmeval/lmeval/tasks" // the ports of okapi's helpers that are truthfulqa's and hellaswag's source
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
