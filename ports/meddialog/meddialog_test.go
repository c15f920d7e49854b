package meddialog_test

import (
	"testing"

	"lmeval/ports/internal/vectest"

	_ "lmeval/ports/meddialog"
)

func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }
