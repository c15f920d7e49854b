package metrics

import (
	"github.com/lmeval/lmeval/harness/model"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		return nodeValue(n.Content[0])
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = nodeValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			l = append(l, nodeValue(c))
		}
		return l
	case yaml.AliasNode:
		return nodeValue(n.Alias)
	}
	if strings.HasPrefix(n.Tag, "!!") {
		var v any
		if err := n.Decode(&v); err == nil {
			return v
		}
	}
	return n.Tag + " " + n.Value
}

// Every metric_list in the sample of lm-eval's task files resolves, except
// entries naming Python functions (!function), which need Go registrations.
func TestSharedTaskMetricLists(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval-sample", "tasks")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/lm-eval-sample is absent; skipping real task files")
	}
	found := 0
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var n yaml.Node
		if yaml.Unmarshal(data, &n) != nil || len(n.Content) == 0 {
			return nil
		}
		cfg, ok := nodeValue(&n).(map[string]any)
		if !ok || cfg["metric_list"] == nil || strings.Contains(string(data), "!function") && strings.Contains(string(data), "aggregation: !function") {
			return nil
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
			return nil
		}
		for _, s := range specs {
			if s.Name == "exact_match" {
				if _, err := ParseExactMatchOptions(s.Kwargs); err != nil {
					t.Errorf("%s: %v", path, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Errorf("only %d metric_lists found in the sample task files", found)
	}
}
