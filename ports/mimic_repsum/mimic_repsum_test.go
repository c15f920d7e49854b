package mimic_repsum_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/mimic_repsum"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
