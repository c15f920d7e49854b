package paloma_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/paloma"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
