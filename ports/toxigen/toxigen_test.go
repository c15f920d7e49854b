package toxigen_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/toxigen"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
