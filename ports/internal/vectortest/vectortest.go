// Package vectortest replays the vectors a port's testdata/gen_vectors.py
// recorded from lm-eval's own helpers (pyvec.py) through the registered
// ports: the same inputs must give the same outputs, column order and
// errors.
package vectortest

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// Vector is one call of a real lm-eval helper.
type Vector struct {
	File      string          `json:"file"`
	Function  string          `json:"function"`
	Kind      string          `json:"kind"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	Error     string          `json:"error"`
	Seed      *int64          `json:"seed"`
	Args      map[string]any  `json:"args"`
	InColumns []string        `json:"in_columns"`
	Columns   []string        `json:"columns"`
}

// Load reads a vectors file.
func Load(t *testing.T, file string) []Vector {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// Run replays every vector of file; it returns them for further checks.
func Run(t *testing.T, file string) []Vector {
	t.Helper()
	vs := Load(t, file)
	for i, v := range vs {
		got, err := Call(t, v)
		if v.Error != "" {
			if err == nil {
				t.Errorf("vector %d (%s:%s): no error, lm-eval raised %s; got %v", i, v.File, v.Function, v.Error, normal(t, got))
			}
			continue
		}
		if err != nil {
			t.Errorf("vector %d (%s:%s): %v", i, v.File, v.Function, err)
			continue
		}
		if g, w := normal(t, got), normal(t, Value(t, v.Output)); !reflect.DeepEqual(g, w) {
			t.Errorf("vector %d (%s:%s):\n got %v\nwant %v", i, v.File, v.Function, g, w)
		}
		if v.Kind == "process_docs" && v.Columns != nil {
			fn := Lookup(t, v)
			var added []string
			if m, ok := fn.(task.MapDocs); ok {
				added = m.Columns
			}
			docs, _ := got.([]task.Doc)
			cols := pyval.ColumnsOf(v.InColumns...).Mapped(docs, added)
			if len(docs) > 0 && !reflect.DeepEqual(cols.Names, v.Columns) {
				t.Errorf("vector %d (%s:%s): columns\n got %v\nwant %v", i, v.File, v.Function, cols.Names, v.Columns)
			}
		}
	}
	return vs
}

// Lookup finds the port of the vector's file and function as a task
// YAML in the file's directory would.
func Lookup(t *testing.T, v Vector) any {
	t.Helper()
	dir := path.Dir(v.File)
	name := strings.TrimSuffix(path.Base(v.File), ".py") + "." + v.Function
	fn, ok := task.LookupFunction(dir, name)
	if !ok {
		t.Fatalf("no port of %s:%s", v.File, v.Function)
	}
	return fn
}

// Call runs the vector's input through the port.
func Call(t *testing.T, v Vector) (any, error) {
	t.Helper()
	fn := Lookup(t, v)
	switch v.Kind {
	case "doc":
		return fn.(task.DocFunc)(Doc(t, v.Input))
	case "process_docs":
		if v.Seed != nil {
			pyrand.SeedGlobal(*v.Seed)
			defer pyrand.SeedGlobal(0)
		}
		docs := Docs(t, v.Input)
		switch f := fn.(type) {
		case task.MapDocs:
			return f.Fn(docs)
		case task.ProcessDocsFunc:
			return f(docs)
		}
		t.Fatalf("%s:%s: port is %T, not a process_docs", v.File, v.Function, fn)
	case "process_results":
		in := fields(t, v.Input)
		rs, _ := Value(t, in["results"]).([]any)
		return fn.(task.ProcessResultsFunc)(Doc(t, in["doc"]), rs)
	case "process_results_loglikelihood":
		// results are [loglikelihood, is_greedy] pairs, as lm-eval passes.
		in := fields(t, v.Input)
		raw, _ := Value(t, in["results"]).([]any)
		rs := make([]any, len(raw))
		for i, r := range raw {
			p, _ := r.([]any)
			if len(p) != 2 {
				t.Fatalf("result %d: %v, want [loglikelihood, is_greedy]", i, r)
			}
			ll, _ := p[0].(float64)
			if n, ok := p[0].(int64); ok {
				ll = float64(n)
			}
			g, _ := p[1].(bool)
			rs[i] = model.LoglikelihoodResult{LogProb: ll, IsGreedy: g}
		}
		return fn.(task.ProcessResultsFunc)(Doc(t, in["doc"]), rs)
	case "filter":
		in := fields(t, v.Input)
		resps, _ := Value(t, in["resps"]).([]any)
		docs := Docs(t, in["docs"])
		args := v.Args
		if args == nil {
			args = map[string]any{}
		}
		f, err := fn.(filters.Factory)(args)
		if err != nil {
			return nil, err
		}
		ds := make([]map[string]any, len(docs))
		for i, d := range docs {
			ds[i] = d
		}
		return f.Apply(resps, ds)
	}
	t.Fatalf("unknown vector kind %q", v.Kind)
	return nil, nil
}

// normal round-trips v through JSON so Go and Python values compare;
// a metrics.Weighted is the (loglikelihood, weight) tuple it stands for.
func normal(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(tuples(v))
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func tuples(v any) any {
	switch x := v.(type) {
	case metrics.Weighted:
		return []any{x.LogLik, x.Weight}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = tuples(e)
		}
		return out
	}
	return v
}

// Value reads JSON as the dataset loader gives documents: integers as
// int64, other numbers as float64.
func Value(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	return numbers(x)
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

// Doc is Value as a document.
func Doc(t *testing.T, raw json.RawMessage) task.Doc {
	t.Helper()
	d, ok := Value(t, raw).(map[string]any)
	if !ok {
		t.Fatalf("not a document: %s", raw)
	}
	return d
}

// Docs is Value as a list of documents.
func Docs(t *testing.T, raw json.RawMessage) []task.Doc {
	t.Helper()
	l, ok := Value(t, raw).([]any)
	if !ok {
		t.Fatalf("not a list of documents: %.200s", raw)
	}
	out := make([]task.Doc, len(l))
	for i, e := range l {
		if out[i], ok = e.(map[string]any); !ok {
			t.Fatalf("not a document: %v", e)
		}
	}
	return out
}

func fields(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
