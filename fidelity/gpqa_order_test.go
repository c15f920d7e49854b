package fidelity_test

import (
	"context"
	"encoding/json"
	"github.com/lmeval/lmeval/backend/dummy"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/fidelity/leaderboard"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
)

// gpqaOrder is leaderboard/gpqa_order.json, written by
// scripts/parity/gpqa.py from the real lm-eval with the real `datasets`.
type gpqaOrder struct {
	Runs map[string]struct {
		Tasks    []string `json:"tasks"`
		Shuffles int      `json:"shuffles"`
		Orders   map[string][]struct {
			DocID   int      `json:"doc_id"`
			Choices []string `json:"choices"`
			Answer  string   `json:"answer"`
		} `json:"orders"`
	} `json:"runs"`
}

// TestLeaderboardGPQAOrder: leaderboard GPQA shuffles each document's
// choices with Python's global random inside datasets' map, whose on-disk
// cache decides whether the shuffle draws at all (scripts/parity/gpqa.py).
// lmeval must give the choice order the real lm-eval with the real
// `datasets` gives on a first run (a fresh cache): the GPQA tasks alone,
// and inside the leaderboard group, where the tasks built before them have
// drawn from the generator first.
func TestLeaderboardGPQAOrder(t *testing.T) {
	tasksDir, err := filepath.Abs(lmevalTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	var want gpqaOrder
	b, err := os.ReadFile(filepath.Join(leaderboard.Dir(), "gpqa_order.json"))
	if err != nil {
		t.Fatalf("%v (run scripts/parity/gpqa.py)", err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	leaderboard.ServeHub(t)
	for _, name := range []string{"alone", "group"} {
		run, ok := want.Runs[name]
		if !ok {
			t.Fatalf("gpqa_order.json has no run %q", name)
		}
		t.Run(name, func(t *testing.T) {
			cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
				"model": "dummy", "tasks": run.Tasks, "include_path": []string{tasksDir}, "limit": "2",
			}})
			if err != nil {
				t.Fatal(err)
			}
			lm, err := dummy.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			got := map[string]*memSamples{}
			plan, err := harness.NewPlan(cfg, harness.WithBuiltinTasks(benchmarks.FS()),
				harness.WithWriteOut(io.Discard),
				harness.WithSamples(func(task string) (harness.SampleWriter, error) {
					mu.Lock()
					defer mu.Unlock()
					got[task] = &memSamples{}
					return got[task], nil
				}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plan.Evaluate(context.Background(), lm); err != nil {
				t.Fatal(err)
			}
			for task, docs := range run.Orders {
				samples := map[int]map[string]any{}
				if got[task] != nil {
					for _, s := range got[task].all {
						b, err := json.Marshal(s.Doc)
						if err != nil {
							t.Fatal(err)
						}
						var doc map[string]any
						if err := json.Unmarshal(b, &doc); err != nil {
							t.Fatal(err)
						}
						samples[s.DocID] = doc
					}
				}
				if len(samples) != len(docs) {
					t.Errorf("%s: %d documents, lm-eval %d", task, len(samples), len(docs))
				}
				for _, d := range docs {
					doc := samples[d.DocID]
					var choices []string
					for _, k := range []string{"choice1", "choice2", "choice3", "choice4"} {
						c, _ := doc[k].(string)
						choices = append(choices, c)
					}
					if !reflect.DeepEqual(choices, d.Choices) || doc["answer"] != d.Answer {
						t.Errorf("%s doc %d: choices %q answer %v, lm-eval %q answer %s", task, d.DocID, choices, doc["answer"], d.Choices, d.Answer)
					}
				}
			}
		})
	}
}
