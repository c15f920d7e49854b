package indicparam_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/indicparam"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
