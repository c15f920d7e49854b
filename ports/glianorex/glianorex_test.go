package glianorex

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectortest"
)

func TestVectors(t *testing.T) { vectortest.Run(t, "testdata/vectors.json") }
