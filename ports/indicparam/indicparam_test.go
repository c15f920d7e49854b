package indicparam_test

import (
	"testing"

	_ "lmeval/ports/indicparam"
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
