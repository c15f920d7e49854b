package benchmarks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/all" // the tree's tasks need lm-eval's helpers
)

// TestPresetsResolve checks that every task a built-in preset names is a
// built-in task, group or tag that loads, or (the multilingual presets)
// one of lm-eval's task tree, checked against ../shared/lm-eval when it
// is there.
func TestPresetsResolve(t *testing.T) {
	presets, err := config.Presets(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(presets) == 0 {
		t.Fatal("no built-in presets")
	}
	r := builtin(t)
	var tree *task.Registry
	treeDir := filepath.Join("..", "..", "shared", "lm-eval", "lm_eval", "tasks")
	if _, err := os.Stat(treeDir); err == nil {
		tree = task.NewRegistry()
		if err := tree.AddDir(treeDir); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range presets {
		list, ok := p.Values["tasks"].([]any)
		if !ok || len(list) == 0 {
			t.Errorf("preset %s names no tasks", p.Name)
			continue
		}
		for _, v := range list {
			s, _ := v.(string)
			spec, err := config.ParseTaskSpec(s)
			if err != nil {
				t.Errorf("preset %s: %v", p.Name, err)
				continue
			}
			_, err = r.Load([]string{spec.Name})
			if _, builtin := r.Lookup(spec.Name); !builtin && err != nil {
				if tree == nil {
					t.Logf("preset %s: %s is not built in and lm-eval's task tree (../shared/lm-eval) is not here: not checked", p.Name, spec.Name)
					continue
				}
				_, err = tree.Load([]string{spec.Name})
			}
			if err != nil {
				t.Errorf("preset %s: task %s: %v", p.Name, spec.Name, err)
			}
		}
	}
}
