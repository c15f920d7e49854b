package noticia_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/catalan_bench" // noticia's rouge1
	_ "lmeval/ports/noticia"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
