package all_test

import (
	"encoding/json"
	"math"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/all"
	"github.com/lmeval/lmeval/ports/gpqa"
	"github.com/lmeval/lmeval/python/pyrand"
)

// vector is one call of a real lm-eval helper (testdata/gen_vectors.py).
type vector struct {
	File     string          `json:"file"`
	Function string          `json:"function"`
	Kind     string          `json:"kind"`
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	Args     map[string]any  `json:"args"`
	Seed     int64           `json:"seed"`
}

// normal round-trips v through JSON so Go and Python values compare.
func normal(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// yamlInts gives whole JSON numbers the int type YAML decoding gives.
func yamlInts(v any) any {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = yamlInts(e)
		}
	case []any:
		for i, e := range x {
			x[i] = yamlInts(e)
		}
	}
	return v
}

// docs decodes documents with JSON numbers as the task layer has them.
func docs(t *testing.T, raw json.RawMessage) []task.Doc {
	t.Helper()
	return decode[[]task.Doc](t, raw)
}

// TestPortsMatchLmEval feeds every vector's input to the registered port
// and compares with the Python function's output.
func TestPortsMatchLmEval(t *testing.T) {
	data, err := os.ReadFile("../testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors")
	}
	for i, v := range vs {
		dir := path.Dir(v.File)
		name := strings.TrimSuffix(path.Base(v.File), ".py") + "." + v.Function
		fn, ok := task.LookupHook(dir, name)
		if !ok {
			t.Errorf("vector %d: no port of %s:%s", i, v.File, v.Function)
			continue
		}
		want := decode[any](t, v.Output)
		var got any
		switch v.Kind {
		case "doc":
			d := decode[task.Doc](t, v.Input)
			got, err = fn.DocFunc(d)
		case "process_docs":
			got, err = processDocsFn(fn)(docs(t, v.Input), pyrand.NewModule(0))
		case "process_docs_calls":
			// Each call: a seed, documents and the output of the function
			// as the first call after random.seed(seed) (n_shot: after
			// the import).
			pd := processDocsFn(fn)
			for j, c := range decode[[]struct {
				Seed   int64           `json:"seed"`
				Docs   json.RawMessage `json:"docs"`
				Output json.RawMessage `json:"output"`
			}](t, v.Input) {
				if v.File == "gpqa/n_shot/utils.py" {
					pd = processDocsFn(&task.Hook{ProcessDocs: &task.MapDocs{Fn: gpqa.NShotProcessDocs()}}) // a fresh import of the module
				}
				out, err := pd(docs(t, c.Docs), pyrand.NewModule(c.Seed))
				if err != nil {
					t.Errorf("vector %d call %d (%s): %v", i, j, v.File, err)
					continue
				}
				if g, w := normal(t, out), decode[any](t, c.Output); !reflect.DeepEqual(g, w) {
					t.Errorf("vector %d call %d (%s):\n got %v\nwant %v", i, j, v.File, g, w)
				}
			}
			continue
		case "process_results":
			in := decode[struct {
				Doc     task.Doc `json:"doc"`
				Results []any    `json:"results"`
			}](t, v.Input)
			got, err = fn.ProcessResults(in.Doc, in.Results)
		case "filter":
			in := decode[struct {
				Docs  []map[string]any `json:"docs"`
				Resps []any            `json:"resps"`
			}](t, v.Input)
			var f filters.Filter
			if f, err = fn.Filter(yamlInts(v.Args).(map[string]any)); err == nil {
				got, err = f.Apply(in.Resps, in.Docs)
			}
		case "aggregation":
			var items []any
			for _, p := range decode[[][2]int](t, v.Input) {
				items = append(items, metrics.Pair{Gold: p[0], Pred: p[1]})
			}
			var x float64
			if x, err = fn.Aggregation.Fn(items); err == nil {
				if w := want.(float64); math.Abs(x-w) > 1e-12 {
					t.Errorf("vector %d (%s:%s): %v, want %v", i, v.File, v.Function, x, w)
				}
			}
			got = want // compared above, to rounding
		default:
			t.Fatalf("vector %d: unknown kind %q", i, v.Kind)
		}
		if err != nil {
			t.Errorf("vector %d (%s:%s): %v", i, v.File, v.Function, err)
			continue
		}
		if g := normal(t, got); !reflect.DeepEqual(g, want) {
			t.Errorf("vector %d (%s:%s):\n got %v\nwant %v", i, v.File, v.Function, g, want)
		}
	}
}

// processDocsFn calls a process_docs port (a MapDocs's Fn or FnModule) in
// a run of its own.
func processDocsFn(h *task.Hook) func([]task.Doc, *pyrand.Module) ([]task.Doc, error) {
	if f := h.ProcessDocs.FnModule; f != nil {
		return f
	}
	return func(docs []task.Doc, _ *pyrand.Module) ([]task.Doc, error) { return h.ProcessDocs.Fn(docs) }
}
