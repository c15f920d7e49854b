package longbench

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

// vector is one call of lm-eval's get_*_with_score (testdata/gen_vectors.py).
type vector struct {
	Function string             `json:"function"`
	Doc      map[string]any     `json:"doc"`
	Results  []any              `json:"results"`
	Output   map[string]float64 `json:"output"`
	Error    string             `json:"error"`
}

func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 40 {
		t.Fatalf("%d vectors", len(vs))
	}
	for i, v := range vs {
		fn, ok := task.LookupHook("longbench", "metrics."+v.Function)
		if !ok {
			t.Errorf("%s has no port", v.Function)
			continue
		}
		got, err := fn.ProcessResults(v.Doc, v.Results)
		if v.Error != "" {
			exc, _, _ := strings.Cut(v.Error, ":")
			if err == nil || !strings.Contains(err.Error(), exc) {
				t.Errorf("%d %s: %v, %v; want %s", i, v.Function, got, err, v.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d %s: %v", i, v.Function, err)
			continue
		}
		if len(got) != len(v.Output) {
			t.Errorf("%d %s = %v, want %v", i, v.Function, got, v.Output)
		}
		for k, want := range v.Output {
			g, _ := got[k].(float64)
			if math.Abs(g-want) > 0 {
				t.Errorf("%d %s(%q)[%s] = %v, want %v", i, v.Function, v.Results, k, got[k], want)
			}
		}
	}
}
