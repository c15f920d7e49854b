package xquad_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectors"
	_ "github.com/lmeval/lmeval/ports/xquad"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
