package meddialog_test

import (
	"testing"

	"lmeval/ports/internal/vecreplay"

	_ "lmeval/ports/meddialog"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
