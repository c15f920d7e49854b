package mediqa_qa2019_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/mediqa_qa2019"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
