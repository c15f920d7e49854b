package meqsum_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/meqsum"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
