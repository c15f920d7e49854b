package filters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// nodeValue converts YAML to JSON-like values; tagged scalars such as
// !function keep their text.
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
	return n.Value
}

// Every filter_list in the sample of lm-eval's task files builds, and
// gsm8k's pipelines extract what lm-eval extracts.
func TestSharedTaskFilterLists(t *testing.T) {
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
		if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) == 0 {
			return nil
		}
		cfg, ok := nodeValue(&n).(map[string]any)
		if !ok || cfg["filter_list"] == nil {
			return nil
		}
		found++
		ps, err := ParseFilterList(cfg["filter_list"])
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no filter_list found in the sample task files")
	}
}
