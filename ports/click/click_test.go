package click_test

import (
	"testing"

	_ "lmeval/ports/click"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
