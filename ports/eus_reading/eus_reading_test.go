package eus_reading_test

import (
	"testing"

	_ "lmeval/ports/eus_reading" // and eus_trivia
	"lmeval/ports/internal/vectors"
)

func TestVectors(t *testing.T) { vectors.Replay(t, "testdata/vectors.json") }
