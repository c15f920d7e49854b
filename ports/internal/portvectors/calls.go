package portvectors

// Calls: the vectors that a port's testdata/gen_vectors.py records with
// vectorlib.py (doc_to_* calls, process_docs with the documents' column
// order and the random seed, filter functions, metric functions,
// helpers registered as task.Unavailable): each call's input goes to the
// port registered for its file and function, whose output (or error) must
// be the Python function's.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// Call is one recorded call of a Python helper.
type Call struct {
	File     string          `json:"file"`
	Function string          `json:"function"`
	Kind     string          `json:"kind"` // doc, process_docs, filter_fn, metric, unavailable
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	// Columns is the input documents' key order (process_docs), Keys the
	// output documents'.
	Columns []string `json:"columns"`
	Keys    []string `json:"keys"`
	// Error is the exception the Python function raised ("" when none).
	Error string `json:"error"`
	// Seed, for a process_docs drawing from Python's module generator, is
	// the random.seed before the call.
	Seed int64 `json:"seed"`
	// Env is the environment the Python module was imported with, for
	// helpers with settings.
	Env map[string]string `json:"env"`
}

// value decodes JSON as the task layer has documents: integers int64,
// other numbers float64.
func value(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return convert(v)
}

func convert(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = convert(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = convert(x[k])
		}
	}
	return v
}

// normal round-trips v through Python's JSON (json.dumps: a float is
// 1.0, not 1) so Go and Python values compare.
func normal(t *testing.T, v any) any {
	t.Helper()
	s, err := pyval.JSON(v, pyval.JSONOptions{Indent: -1})
	if err != nil {
		t.Fatal(err)
	}
	return value(t, []byte(s))
}

func docs(t *testing.T, v any) []task.Doc {
	t.Helper()
	l, ok := v.([]any)
	if !ok {
		t.Fatalf("documents are %T", v)
	}
	out := make([]task.Doc, len(l))
	for i, d := range l {
		out[i] = d.(map[string]any)
	}
	return out
}

// Load reads the vectors of file (a JSON list).
func Load(t *testing.T, file string) []Call {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Call
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors in " + file)
	}
	return vs
}

// Run checks every vector of file against the registered ports, and that
// every helper in want (file:function) has at least one vector.
func Run(t *testing.T, file string, want ...string) {
	t.Helper()
	RunWith(t, file, nil, want...)
}

// RunWith is Run where port, when it returns non-nil, gives the function
// to call for a vector instead of the registered port (a port with
// settings, called with the vector's Env).
func RunWith(t *testing.T, file string, port func(Call) any, want ...string) {
	t.Helper()
	vs := Load(t, file)
	seen := map[string]bool{}
	for i, v := range vs {
		seen[v.File+":"+v.Function] = true
		name := v.File + ":" + v.Function
		if v.Env != nil {
			name += fmt.Sprintf(" %v", v.Env)
		}
		var fn any
		if port != nil {
			fn = port(v)
		}
		if fn == nil {
			var ok bool
			fn, ok = task.LookupFunction(path.Dir(v.File), strings.TrimSuffix(path.Base(v.File), ".py")+"."+v.Function)
			if !ok {
				t.Errorf("vector %d: no port of %s", i, name)
				continue
			}
		}
		check(t, i, name, v, fn)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no vector for %s", w)
		}
	}
}

func check(t *testing.T, i int, name string, v Call, fn any) {
	t.Helper()
	in := value(t, v.Input)
	var (
		got any
		err error
	)
	switch v.Kind {
	case "doc":
		f, ok := fn.(task.DocFunc)
		if !ok {
			t.Errorf("vector %d (%s): port is %T, want task.DocFunc", i, name, fn)
			return
		}
		got, err = f(in.(map[string]any))
	case "process_docs":
		pyrand.SeedGlobal(v.Seed)
		defer pyrand.SeedGlobal(0)
		ds := docs(t, in)
		var cols *pyval.Columns
		if v.Columns != nil {
			cols = pyval.ColumnsOf(v.Columns...)
		}
		var added []string
		switch f := fn.(type) {
		case task.MapDocs:
			added = f.Columns
			switch {
			case f.FnRand != nil: // the first draws after random.seed(v.Seed)
				got, err = f.FnRand(ds, pyrand.New(v.Seed))
			case f.FnColumns != nil:
				got, err = f.FnColumns(ds, cols)
			default:
				got, err = f.Fn(ds)
			}
		case task.ProcessDocsFunc:
			got, err = f(ds)
		default:
			t.Errorf("vector %d (%s): port is %T, want a process_docs", i, name, fn)
			return
		}
		if err == nil && v.Keys != nil && cols != nil {
			if k := cols.Mapped(got.([]task.Doc), added).Names; !slices.Equal(k, v.Keys) {
				t.Errorf("vector %d (%s): columns %q, want Python's %q", i, name, k, v.Keys)
			}
		}
	case "filter_fn":
		f, ok := fn.(filters.FilterFunc)
		if !ok {
			t.Errorf("vector %d (%s): port is %T, want filters.FilterFunc", i, name, fn)
			return
		}
		m := in.(map[string]any)
		var ds []map[string]any
		for _, d := range m["docs"].([]any) {
			ds = append(ds, d.(map[string]any))
		}
		got, err = f(m["resps"].([]any), ds)
	case "metric":
		f, ok := fn.(metrics.DocFunc)
		if !ok {
			t.Errorf("vector %d (%s): port is %T, want metrics.DocFunc", i, name, fn)
			return
		}
		m := in.(map[string]any)
		got, err = f(metrics.Spec{}, &metrics.DocResult{OutputType: "generate_until",
			Golds: []string{m["gold"].(string)}, Result: m["result"].(string)})
	case "unavailable":
		u, ok := fn.(task.Unavailable)
		if !ok || u.Reason == "" {
			t.Errorf("vector %d (%s): port is %#v, want task.Unavailable with a reason", i, name, fn)
		}
		return
	default:
		t.Fatalf("vector %d: unknown kind %q", i, v.Kind)
	}
	if v.Error != "" {
		if err == nil {
			t.Errorf("vector %d (%s): no error, want Python's %s (got %v)", i, name, v.Error, normal(t, got))
		}
		return
	}
	if err != nil {
		t.Errorf("vector %d (%s): %v", i, name, err)
		return
	}
	if g, w := normal(t, got), value(t, v.Output); !reflect.DeepEqual(g, w) {
		t.Errorf("vector %d (%s):\n got %#v\nwant %#v", i, name, g, w)
	}
}
