package copal_id_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/copal_id"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
