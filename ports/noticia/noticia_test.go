package noticia_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/catalan_bench" // noticia's rouge1
	_ "github.com/lmeval/lmeval/ports/noticia"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
