package benchmarks

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lmeval/lmeval/benchmarks/fixtures"
)

// fixtureSplits reads every <split>.jsonl of a fixture directory.
func fixtureSplits(dir string) (map[string][]map[string]any, error) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	out := map[string][]map[string]any{}
	for _, f := range files {
		docs, err := fixtures.Read(f)
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(filepath.Base(f), ".jsonl")] = docs
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fixture documents in testdata/%s", dir)
	}
	return out, nil
}
