package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
)

// BenchmarkEvaluate measures the evaluator's own work (building, request
// gathering, scoring, aggregation, bootstrap) on a 2000-document
// four-choice task with the dummy model.
func BenchmarkEvaluate(b *testing.B) {
	dir := b.TempDir()
	var lines []string
	for i := range 2000 {
		d := map[string]any{
			"question": fmt.Sprintf("Question %d: which of these is number %d?", i, i%4),
			"choices":  []string{"zero", "one", "two", "three"},
			"label":    i % 4,
		}
		js, _ := json.Marshal(d)
		lines = append(lines, string(js))
	}
	data := filepath.Join(dir, "bench.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	yaml := fmt.Sprintf(`task: bench_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: %s
test_split: test
output_type: multiple_choice
doc_to_text: "{{question}}\nAnswer:"
doc_to_choice: "{{choices}}"
doc_to_target: label
metric_list:
  - metric: acc
  - metric: acc_norm
`, data)
	if err := os.WriteFile(filepath.Join(dir, "bench.yaml"), []byte(yaml), 0o644); err != nil {
		b.Fatal(err)
	}
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
	if err != nil {
		b.Fatal(err)
	}
	lm, _ := dummy.New(nil)
	cfg, err := testConfigB("bench_mc")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := evaluate(context.Background(), cfg, lm, WithRegistry(reg)); err != nil {
			b.Fatal(err)
		}
	}
}
