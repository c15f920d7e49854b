package evalita_llm_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/evalita_llm"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
