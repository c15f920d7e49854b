package basqueglue_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/basqueglue"
	"github.com/lmeval/lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
