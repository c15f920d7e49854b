package meddialog_test

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vecreplay"

	_ "github.com/lmeval/lmeval/ports/meddialog"
)

func TestVectors(t *testing.T) { vecreplay.Run(t, "testdata/vectors.json") }
