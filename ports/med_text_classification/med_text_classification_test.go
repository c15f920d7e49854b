package med_text_classification_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/med_text_classification"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
