package mediqa_qa2019_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/mediqa_qa2019"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
