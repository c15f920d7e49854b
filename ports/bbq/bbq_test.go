package bbq_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/bbq"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json.gz") }
