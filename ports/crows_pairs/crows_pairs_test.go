package crows_pairs_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"

	_ "github.com/lmeval/lmeval/ports/crows_pairs"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
