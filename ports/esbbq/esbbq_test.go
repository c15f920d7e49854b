package esbbq_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/esbbq"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json.gz") }
