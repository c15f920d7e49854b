package tasks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// readJSONLFile reads fixture documents with numbers typed
// as the dataset loader types them (int64 when integral, else float64).
func readJSONLFile(p string) ([]map[string]any, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var docs []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", p, line, err)
		}
		docs = append(docs, typed(v).(map[string]any))
	}
	return docs, sc.Err()
}

func typed(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && !strings.ContainsAny(x.String(), ".eE") {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = typed(e)
		}
	case []any:
		for i, e := range x {
			x[i] = typed(e)
		}
	}
	return v
}

// fixtureSplits reads every <split>.jsonl of a fixture directory.
func fixtureSplits(dir string) (map[string][]map[string]any, error) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	out := map[string][]map[string]any{}
	for _, f := range files {
		docs, err := readJSONLFile(f)
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
