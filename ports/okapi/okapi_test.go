package okapi_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/hellaswag" // the ports of okapi's helpers that are hellaswag's source
	"github.com/lmeval/lmeval/ports/internal/vectest"
	_ "github.com/lmeval/lmeval/ports/okapi"
	_ "github.com/lmeval/lmeval/ports/truthfulqa" // and truthfulqa's
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
