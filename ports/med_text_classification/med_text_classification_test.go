package med_text_classification_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/med_text_classification"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
