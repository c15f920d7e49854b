package include

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }

func TestEveryCategoryHasAFile(t *testing.T) {
	for _, c := range Categories {
		if firstFile[FuncName(c)] == "" {
			t.Errorf("%s: no file for %s", c, FuncName(c))
		}
	}
}
