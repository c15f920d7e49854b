package eus_reading_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/eus_reading" // and eus_trivia
	"github.com/lmeval/lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
