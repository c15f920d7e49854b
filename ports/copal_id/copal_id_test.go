package copal_id_test

import (
	"testing"

	_ "lmeval/ports/copal_id"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
