package benchmarks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// expected is one file of testdata/expected, written by gen_expected.py.
type expected struct {
	Task       string `json:"task"`
	NumFewshot int    `json:"num_fewshot"`
	Docs       []struct {
		DocID    int   `json:"doc_id"`
		Prompt   any   `json:"prompt"`
		Target   any   `json:"target"`
		Choices  []any `json:"choices"`
		Repeats  int   `json:"repeats"`
		Requests []struct {
			Type string `json:"type"`
			Args []any  `json:"args"`
		} `json:"requests"`
	} `json:"docs"`
	ProcessResults []map[string]any `json:"process_results"`
}

func readExpected(t *testing.T, name string) *expected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "expected", name))
	if err != nil {
		t.Fatal(err)
	}
	var e expected
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &e
}
