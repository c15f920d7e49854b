package bbq_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/bbq"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json.gz") }
