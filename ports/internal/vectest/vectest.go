// Package vectest replays the vectors a port's testdata/gen_vectors.py
// wrote (calls of lm-eval's real helpers, see vectest.py) through the
// registered ports.
package vectest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// Vector is one call of a Python helper.
type Vector struct {
	File     string          `json:"file"`
	Function string          `json:"function"`
	Kind     string          `json:"kind"`
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	Error    string          `json:"error"`
	// Results says how process_results' results are given: "loglikelihood"
	// ([logprob, is_greedy] pairs), or "" (generated strings as they are).
	Results string `json:"results"`
	// Agg names the aggregation a "metric_agg" vector's items go through.
	Agg string `json:"agg"`
	// Tol is the relative tolerance for floats (0: 1e-12).
	Tol float64 `json:"tol"`
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
		t.Fatal("no vectors")
	}
	return vs
}

// Lookup finds the port registered for file:function.
func Lookup(file, function string) (any, bool) {
	return task.LookupFunction(path.Dir(file), strings.TrimSuffix(path.Base(file), ".py")+"."+function)
}

// Run replays every vector of file (testdata/vectors.json).
func Run(t *testing.T, file string) {
	for i, v := range Load(t, file) {
		name := fmt.Sprintf("%d_%s", i, v.Function)
		t.Run(name, func(t *testing.T) {
			got, err := Call(v)
			if v.Error != "" {
				if err == nil {
					t.Fatalf("%s:%s(%s) = %v, want an error (Python raised %s)", v.File, v.Function, short(v.Input), show(got), v.Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s:%s(%s): %v", v.File, v.Function, short(v.Input), err)
			}
			var want any
			if err := json.Unmarshal(v.Output, &want); err != nil {
				t.Fatal(err)
			}
			tol := v.Tol
			if tol == 0 {
				tol = 1e-12
			}
			if msg := Diff(Normal(got), want, tol); msg != "" {
				t.Errorf("%s:%s(%s):\n got %s\nwant %s\n%s", v.File, v.Function, short(v.Input), show(got), show(want), msg)
			}
		})
	}
}

// Call applies the vector's port to its input.
func Call(v Vector) (any, error) {
	fn, ok := Lookup(v.File, v.Function)
	if !ok {
		return nil, fmt.Errorf("no port of %s:%s", v.File, v.Function)
	}
	in, err := decode(v.Input)
	if err != nil {
		return nil, err
	}
	m, _ := in.(map[string]any)
	switch v.Kind {
	case "doc":
		if f, ok := fn.(task.DocFunc); ok {
			return f(m)
		}
	case "process_docs":
		docs, err := docsOf(in)
		if err != nil {
			return nil, err
		}
		switch f := fn.(type) {
		case task.ProcessDocsFunc:
			return f(docs)
		case task.MapDocs:
			return f.Fn(docs)
		}
	case "process_results":
		doc, _ := m["doc"].(map[string]any)
		res, _ := m["results"].([]any)
		if v.Results == "loglikelihood" {
			lls := res
			res = make([]any, len(lls))
			for i, r := range lls {
				p, ok := r.([]any)
				if !ok || len(p) != 2 {
					return nil, fmt.Errorf("result %d is not a [logprob, is_greedy] pair", i)
				}
				res[i] = model.LoglikelihoodResult{LogProb: num(p[0]), IsGreedy: p[1] == true}
			}
		}
		if f, ok := fn.(task.ProcessResultsFunc); ok {
			return f(doc, res)
		}
	case "agg_pairs":
		// lm-eval's (gold, prediction) items of the f1 metric
		l, _ := in.([]any)
		items := make([]any, len(l))
		for i, e := range l {
			p, _ := e.([]any)
			if len(p) != 2 {
				return nil, fmt.Errorf("item %d is not a pair", i)
			}
			g, _ := p[0].(int)
			q, _ := p[1].(int)
			items[i] = metrics.Pair{Gold: g, Pred: q}
		}
		if agg, ok := fn.(*metrics.Aggregation); ok {
			return agg.Fn(items)
		}
	case "agg_likelihood":
		// lm-eval's (gold, log-likelihoods) items of the likelihood metric
		l, _ := in.([]any)
		items := make([]any, len(l))
		for i, e := range l {
			p, _ := e.([]any)
			if len(p) != 2 {
				return nil, fmt.Errorf("item %d is not a pair", i)
			}
			g, _ := p[0].(int)
			lls, _ := p[1].([]any)
			fs := make([]float64, len(lls))
			for j, x := range lls {
				fs[j] = num(x)
			}
			items[i] = metrics.Likelihood{Gold: g, LogLiks: fs}
		}
		if agg, ok := fn.(*metrics.Aggregation); ok {
			return agg.Fn(items)
		}
	case "samples":
		if f, ok := fn.(task.SamplesFunc); ok {
			return f()
		}
	case "metric", "metric_agg":
		calls, _ := in.([]any)
		f, ok := fn.(task.MetricFunc)
		if !ok {
			break
		}
		items := make([]any, len(calls))
		for i, c := range calls {
			cm, _ := c.(map[string]any)
			refs, _ := cm["references"].([]any)
			preds, _ := cm["predictions"].([]any)
			var err error
			if items[i], err = f(context.Background(), refs, preds, nil); err != nil {
				return nil, err
			}
		}
		if v.Kind == "metric" {
			return items, nil
		}
		afn, ok := Lookup(v.File, v.Agg)
		if !ok {
			return nil, fmt.Errorf("no port of %s:%s", v.File, v.Agg)
		}
		agg, ok := afn.(*metrics.Aggregation)
		if !ok {
			return nil, fmt.Errorf("%s is %T, want *metrics.Aggregation", v.Agg, afn)
		}
		return agg.Fn(items)
	default:
		return nil, fmt.Errorf("unknown vector kind %q", v.Kind)
	}
	return nil, fmt.Errorf("%s:%s is registered as %T, which kind %q cannot call", v.File, v.Function, fn, v.Kind)
}

// decode decodes JSON with whole numbers as int (what YAML and the
// dataset loader give the task layer) and other numbers as float64.
func decode(raw json.RawMessage) (any, error) {
	var v any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func docsOf(v any) ([]task.Doc, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("input is %T, want a list of documents", v)
	}
	out := make([]task.Doc, len(l))
	for i, e := range l {
		if out[i], ok = e.(map[string]any); !ok {
			return nil, fmt.Errorf("document %d is %T", i, e)
		}
	}
	return out, nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		if len(x) == 1 {
			if s, ok := x["float"].(string); ok {
				return pyFloat(s)
			}
		}
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

func pyFloat(s string) float64 {
	switch s {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	}
	return math.Inf(-1)
}

func num(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// Normal gives v as JSON would decode it (numbers float64), with NaN and
// infinities as vectest.py writes them.
func Normal(v any) any {
	v = special(v)
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unmarshalable %T: %v", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return err.Error()
	}
	return out
}

func special(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			return map[string]any{"float": "nan"}
		}
		if math.IsInf(x, 1) {
			return map[string]any{"float": "inf"}
		}
		if math.IsInf(x, -1) {
			return map[string]any{"float": "-inf"}
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = special(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = special(e)
		}
		return out
	case []task.Doc:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = special(map[string]any(e))
		}
		return out
	}
	return v
}

// Diff describes how got differs from want ("" when they agree), floats
// within the relative tolerance tol.
func Diff(got, want any, tol float64) string {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("got %T %v, want number %v", got, got, w)
		}
		if g == w || math.Abs(g-w) <= tol*math.Max(math.Abs(w), 1e-300) {
			return ""
		}
		return fmt.Sprintf("got %v, want %v", g, w)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("got %v, want list of %d", show(got), len(w))
		}
		for i := range w {
			if d := Diff(g[i], w[i], tol); d != "" {
				return fmt.Sprintf("[%d]: %s", i, d)
			}
		}
		return ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("got %v, want dict with keys %v", show(got), keys(w))
		}
		for k := range w {
			if d := Diff(g[k], w[k], tol); d != "" {
				return fmt.Sprintf("[%q]: %s", k, d)
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("got %#v, want %#v", got, want)
	}
	return ""
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func show(v any) string {
	b, err := json.Marshal(special(v))
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func short(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
