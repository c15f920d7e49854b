package metrics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/internal/plainyaml"
)

// Every metric_list in the sample of lm-eval's task files resolves, except
// entries naming Python functions (!function), which need Go registrations.
func TestSharedTaskMetricLists(t *testing.T) {
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
		path, cfg, data := f.Path, f.Config, f.Data
		if cfg["metric_list"] == nil || strings.Contains(string(data), "aggregation: !function") {
			continue
		}
		s, _ := cfg["output_type"].(string)
		ot := model.OutputType(s)
		if ot == "" {
			ot = model.OutputGenerateUntil
		}
		found++
		specs, err := ParseMetricList(cfg["metric_list"], ot)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, s := range specs {
			if s.Name == "exact_match" {
				if _, err := ParseExactMatchOptions(s.Kwargs); err != nil {
					t.Errorf("%s: %v", path, err)
				}
			}
		}
	}
	if found < 10 {
		t.Errorf("only %d metric_lists found in the sample task files", found)
	}
}
