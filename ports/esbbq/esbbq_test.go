package esbbq_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/esbbq"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json.gz") }
