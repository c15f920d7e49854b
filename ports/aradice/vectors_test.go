package aradice_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/aradice"
	_ "github.com/lmeval/lmeval/ports/f1score"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.Run(t, "testdata/vectors.json",
		"aradice/ArabicMMLU/EGY/utils.py:process_docs", "aradice/ArabicMMLU/LEV/utils.py:process_docs",
		"aradice/boolq/EGY/utils.py:process_docs", "aradice/boolq/ENG/utils.py:process_docs",
		"aradice/boolq/LEV/utils.py:process_docs", "aradice/boolq/MSA/utils.py:process_docs",
		"aradice/cultural-benchmark/utils.py:process_docs",
		"aradice/openbookqa/utils.py:doc_to_text", "aradice/openbookqa/utils.py:doc_to_choice",
		"aradice/openbookqa/utils.py:doc_to_target")
}

// TestCommonVectors replays the aggregations' vectors of the common
// generator (ports/testdata/gen_vectors.py), which the sklearn f1 ports of
// ports/f1score serve (the same source in every file).
func TestCommonVectors(t *testing.T) { vectest.Run(t, "testdata/vectors_common.json") }
