package eus_reading_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/eus_reading" // and eus_trivia
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
