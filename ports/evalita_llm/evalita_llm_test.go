package evalita_llm_test

import (
	"testing"

	_ "lmeval/ports/evalita_llm"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
