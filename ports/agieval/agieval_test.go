package agieval_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/lmeval/lmeval/ports/agieval"
	"github.com/lmeval/lmeval/ports/hrm8k"
	"github.com/lmeval/lmeval/ports/internal/mathvectors"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays calls of lm-eval's own agieval and hrm8k functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }

// TestMathCorpus compares process_results with lm-eval's on every
// (output, gold) pair of ports/testdata/math.
func TestMathCorpus(t *testing.T) {
	pairs, err := mathvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/math_verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]int
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	check := func(name string, i int, got map[string]any, err error, key string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s pair %d: %v", name, i, err)
		}
		if got[key] != want[name][i] {
			t.Errorf("%s pair %d (output %q, gold %q): %v, lm-eval %d", name, i, pairs[i].Completion, pairs[i].Gold, got[key], want[name][i])
		}
	}
	for i, p := range pairs {
		got, err := agieval.ProcessResults(map[string]any{"answer": p.Gold}, []any{p.Completion})
		check("agieval_g", i, got, err, "acc")
		got, err = agieval.ProcessResults(map[string]any{"answer": p.Solution}, []any{p.Completion})
		check("agieval_s", i, got, err, "acc")
		got, err = hrm8k.ProcessResults(map[string]any{"answer": p.Gold}, []any{p.Completion})
		check("hrm8k_g", i, got, err, "exact_match")
	}
}
