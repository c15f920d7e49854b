package bbq_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/bbq"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json.gz") }
