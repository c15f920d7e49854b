package mediqa_qa2019_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/mediqa_qa2019"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
