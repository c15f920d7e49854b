// Package vecreplay replays reference vectors made by running lm-eval's own
// Python helpers (a port's testdata/gen_vectors.py, which writes
// vectors.json with ports/internal/vectest/vectest.py) through the
// registered native ports, for the ports' unit tests.
//
// A vector is one call: {"file", "function", "kind", "input", "output"},
// with file relative to lm_eval/tasks/ and the port found as a task YAML in
// that file's directory would find it (task.LookupFunction). Kinds:
//
//	doc              input: a document; the port is a task.DocFunc
//	process_docs     input: documents; a task.ProcessDocsFunc or task.MapDocs
//	process_results  input: {"doc", "results"}; a task.ProcessResultsFunc
//	metric           input: {"references", "predictions", "kwargs"}; a task.MetricFunc
//	aggregate        input: {"process_results": "file:function", "items":
//	                 [{"doc", "results"}], "metric": name}: the
//	                 process_results port's values of metric for each item,
//	                 aggregated by this (*metrics.Aggregation) port; or
//	                 {"metric_fn": "file:function", "items": [{"references",
//	                 "predictions"}]}: the function metric's values
//	filter           input: {"args", "resps", "docs"}; a filters.Factory
//
// "error": true says the Python function raised: the port must fail too.
// Results are encoded as the Python helper receives them: [ll, is_greedy]
// for a loglikelihood answer, a number for a rolling one, a string for a
// generation. Outputs are compared after both sides are written as lm-eval
// logs them (tuples as lists, NaN as "NaN"; see Normal).
package vecreplay

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// Vector is one recorded call.
type Vector struct {
	File     string          `json:"file"`
	Function string          `json:"function"`
	Kind     string          `json:"kind"`
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	Error    bool            `json:"error"`
	// Tol, when set, is the absolute tolerance for numbers (aggregations
	// summing in another order); 0 is exact.
	Tol float64 `json:"tol"`
}

// Load reads vectors from a .json or .json.gz file.
func Load(t testing.TB, file string) []Vector {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	var vs []Vector
	if err := json.NewDecoder(r).Decode(&vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// Run replays every vector of file (see the package documentation).
func Run(t *testing.T, file string) {
	t.Helper()
	for i, v := range Load(t, file) {
		name := fmt.Sprintf("%d_%s:%s", i, v.File, v.Function)
		t.Run(name, func(t *testing.T) { runOne(t, v) })
	}
}

func lookup(t *testing.T, key string) any {
	t.Helper()
	file, fn, ok := strings.Cut(key, ":")
	if !ok {
		t.Fatalf("bad helper %q", key)
	}
	f, ok := task.LookupFunction(path.Dir(file), strings.TrimSuffix(path.Base(file), ".py")+"."+fn)
	if !ok {
		t.Fatalf("no port of %s", key)
	}
	if u, ok := f.(task.Unavailable); ok && u.Port != nil {
		return u.Port // a port serving some of the tasks
	}
	return f
}

type docResults struct {
	Doc     task.Doc
	Results []any
}

func asDocResults(t *testing.T, v any) docResults {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want {doc, results}, got %T", v)
	}
	d, _ := m["doc"].(map[string]any)
	rs, _ := m["results"].([]any)
	return docResults{Doc: d, Results: rs}
}

func runOne(t *testing.T, v Vector) {
	fn := lookup(t, v.File+":"+v.Function)
	in := Decode(t, v.Input)
	field := func(k string) any {
		m, ok := in.(map[string]any)
		if !ok {
			t.Fatalf("input is %T, want an object", in)
		}
		return m[k]
	}
	var (
		got any
		err error
	)
	switch v.Kind {
	case "doc":
		d, _ := in.(map[string]any)
		f, ok := fn.(task.DocFunc)
		if !ok {
			t.Fatalf("port is %T, want task.DocFunc", fn)
		}
		got, err = f(d)
	case "process_docs":
		docs := docList(in)
		switch f := fn.(type) {
		case task.ProcessDocsFunc:
			got, err = f(docs)
		case task.MapDocs:
			got, err = f.Fn(docs)
		default:
			t.Fatalf("port is %T, want task.ProcessDocsFunc", fn)
		}
	case "process_results":
		dr := asDocResults(t, in)
		f, ok := fn.(task.ProcessResultsFunc)
		if !ok {
			t.Fatalf("port is %T, want task.ProcessResultsFunc", fn)
		}
		got, err = f(dr.Doc, Results(dr.Results))
	case "metric":
		refs, _ := field("references").([]any)
		preds, _ := field("predictions").([]any)
		kw, _ := field("kwargs").(map[string]any)
		if kw == nil {
			kw = map[string]any{}
		}
		f, ok := fn.(task.MetricFunc)
		if !ok {
			t.Fatalf("port is %T, want task.MetricFunc", fn)
		}
		got, err = f(context.Background(), refs, preds, kw)
		if d, ok := got.(task.MetricDict); ok {
			m := map[string]any{}
			for _, it := range d {
				m[it.Name] = it.Value
			}
			got = m
		}
	case "aggregate":
		raw, _ := field("items").([]any)
		agg, ok := fn.(*metrics.Aggregation)
		if !ok {
			t.Fatalf("port is %T, want *metrics.Aggregation", fn)
		}
		items := make([]any, len(raw))
		if mfName, _ := field("metric_fn").(string); mfName != "" {
			// Items from a metric_list function metric:
			// fn(references=..., predictions=...) per document.
			mf, ok := lookup(t, mfName).(task.MetricFunc)
			if !ok {
				t.Fatalf("%s is not a task.MetricFunc", mfName)
			}
			for i, r := range raw {
				m, _ := r.(map[string]any)
				refs, _ := m["references"].([]any)
				preds, _ := m["predictions"].([]any)
				x, err := mf(context.Background(), refs, preds, map[string]any{})
				if err != nil {
					t.Fatalf("item %d: %s: %v", i, mfName, err)
				}
				items[i] = x
			}
		} else {
			prName, _ := field("process_results").(string)
			metric, _ := field("metric").(string)
			pr, ok := lookup(t, prName).(task.ProcessResultsFunc)
			if !ok {
				t.Fatalf("%s is not a task.ProcessResultsFunc", prName)
			}
			for i, r := range raw {
				it := asDocResults(t, r)
				m, err := pr(it.Doc, Results(it.Results))
				if err != nil {
					t.Fatalf("item %d: %s: %v", i, prName, err)
				}
				x, ok := m[metric]
				if !ok {
					t.Fatalf("item %d: %s gave no %s", i, prName, metric)
				}
				items[i] = x
			}
		}
		got, err = agg.Fn(items)
	case "filter":
		args, _ := field("args").(map[string]any)
		resps, _ := field("resps").([]any)
		var docs []map[string]any
		for _, d := range docList(field("docs")) {
			docs = append(docs, d)
		}
		fac, ok := fn.(filters.Factory)
		if !ok {
			t.Fatalf("port is %T, want filters.Factory", fn)
		}
		var f filters.Filter
		if f, err = fac(args); err == nil {
			got, err = f.Apply(resps, docs)
		}
	default:
		t.Fatalf("unknown kind %q", v.Kind)
	}
	if v.Error {
		if err == nil {
			t.Fatalf("Python raised, the port returned %v", got)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	want := Normal(Decode(t, v.Output))
	g := Normal(got)
	if !Equal(g, want, v.Tol) {
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(want)
		t.Errorf("\n got %s\nwant %s", gb, wb)
	}
}

func docList(v any) []task.Doc {
	l, _ := v.([]any)
	out := make([]task.Doc, len(l))
	for i, e := range l {
		out[i], _ = e.(map[string]any)
	}
	return out
}

// Decode reads JSON written by Python's json.dumps with Python's types: a
// number with a fraction or exponent is a float64, any other an int64 (as
// the task layer's documents have them); the strings "NaN", "Infinity"
// and "-Infinity" stay strings (compare with Normal).
func Decode(t testing.TB, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return fixNumbers(v)
}

func fixNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			f, _ := x.Float64()
			return f
		}
		i, err := x.Int64()
		if err != nil {
			f, _ := x.Float64()
			return f
		}
		return i
	case []any:
		for i, e := range x {
			x[i] = fixNumbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = fixNumbers(e)
		}
	}
	return v
}

// Results turns recorded answers into what the task layer hands a
// process_results port: [ll, is_greedy] a model.LoglikelihoodResult, a
// number a model.RollingResult, anything else as it is.
func Results(rs []any) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		switch x := r.(type) {
		case []any:
			if len(x) == 2 {
				ll, ok1 := x[0].(float64)
				if i, ok := x[0].(int64); ok {
					ll, ok1 = float64(i), true
				}
				g, ok2 := x[1].(bool)
				if ok1 && ok2 {
					out[i] = model.LoglikelihoodResult{LogProb: ll, IsGreedy: g}
					continue
				}
			}
			out[i] = r
		case float64:
			out[i] = model.RollingResult{LogProb: x}
		case int64:
			out[i] = model.RollingResult{LogProb: float64(x)}
		default:
			out[i] = r
		}
	}
	return out
}

// Normal writes a port's value as JSON-like data the way lm-eval logs the
// Python value: tuples and lists as lists, NaN and infinities as the
// strings "NaN", "Infinity", "-Infinity", whole numbers as float64.
func Normal(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case task.SampleValuer:
		return Normal(x.SampleValue())
	case model.LoglikelihoodResult:
		return []any{Normal(x.LogProb), x.IsGreedy}
	case model.RollingResult:
		return Normal(x.LogProb)
	case metrics.Weighted:
		return []any{Normal(x.LogLik), Normal(x.Weight)}
	case metrics.Pair:
		return []any{float64(x.Gold), float64(x.Pred)}
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
		return x
	case float32:
		return Normal(float64(x))
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case string, bool:
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normal(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Normal(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = Normal(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = Normal(rv.MapIndex(k).Interface())
		}
		return out
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint())
	case reflect.String:
		return rv.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return string(b)
	}
	return out
}

// Equal compares normalized values; numbers within tol.
func Equal(a, b any, tol float64) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok {
			return false
		}
		if tol == 0 {
			return x == y
		}
		return math.Abs(x-y) <= tol*math.Max(1, math.Abs(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i], tol) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !Equal(e, f, tol) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
