package filters

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lmeval/lmeval/internal/plainyaml"
)

// Every filter_list in the sample of lm-eval's task files builds, and
// gsm8k's pipelines extract what lm-eval extracts.
func TestSharedTaskFilterLists(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval-sample", "tasks")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/lm-eval-sample is absent; skipping real task files")
	}
	files, err := plainyaml.Tree(root)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		path, cfg := f.Path, f.Config
		if cfg["filter_list"] == nil {
			continue
		}
		found++
		ps, err := ParseFilterList(cfg["filter_list"])
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if filepath.Base(path) == "gsm8k.yaml" {
			resp := [][]string{{"48/2 = 24 clips in May.\n48+24 = 72 clips.\n#### 72\n\nQuestion: next"}}
			for _, p := range ps {
				got, err := p.ApplyStrings(resp, nil)
				if err != nil || got[0] != "72" {
					t.Errorf("gsm8k %s: %v, %v", p.Name, got, err)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no filter_list found in the sample task files")
	}
}
