package crows_pairs_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/crows_pairs"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
