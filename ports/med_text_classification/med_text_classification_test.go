package med_text_classification_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/med_text_classification"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
