package paws_x_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/paws_x"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
