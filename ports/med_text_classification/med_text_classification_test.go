package med_text_classification_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/med_text_classification"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
