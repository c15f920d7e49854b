package babilong

import (
	"context"
	"errors"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

func TestLoadDataset(t *testing.T) {
	var got task.DatasetSpec
	var gotSplit string
	load := func(_ context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		got, gotSplit = spec, split
		return []task.Doc{{"input": "x"}}, nil
	}
	ds, err := LoadDataset(context.Background(), map[string]any{"qa_split": "qa3", "version": 0.0}, load)
	if err != nil || len(ds["qa3"]) != 1 || got.Path != Dataset || got.Name != "0k" || gotSplit != "qa3" {
		t.Fatalf("LoadDataset = %v, %v (spec %+v, split %q)", ds, err, got, gotSplit)
	}
	if _, err := LoadDataset(context.Background(), map[string]any{"qa_split": "qa3", "max_seq_lengths": "4k"}, load); err != nil || got.Name != "4k" {
		t.Fatalf("max_seq_lengths: %v, %+v", err, got)
	}
	if _, err := LoadDataset(context.Background(), map[string]any{"qa_split": "qa1"}, nil); !errors.Is(err, task.ErrNotLocal) {
		t.Fatalf("no loader: %v, want ErrNotLocal", err)
	}
}

// Cases checked against common_utils.process_results (python3 -c).
func TestAcc(t *testing.T) {
	for _, c := range []struct {
		target, pred string
		want         float64
	}{
		{"kitchen", " The answer: Kitchen.", 1},
		{" garden ", "\x01garden\x02", 1},
		{"bed room", "bed\troom", 0},
		{"hallway", "", 0},
		{"", "anything", 1},
	} {
		got, err := Acc(task.Doc{"target": c.target}, []string{c.pred})
		if err != nil || got != c.want {
			t.Errorf("Acc(%q, %q) = %v, %v; want %v", c.target, c.pred, got, err, c.want)
		}
	}
}
