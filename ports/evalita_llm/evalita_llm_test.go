package evalita_llm_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/evalita_llm"
	"github.com/lmeval/lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
