package noticia_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/catalan_bench" // noticia's rouge1
	_ "lmeval/ports/noticia"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
