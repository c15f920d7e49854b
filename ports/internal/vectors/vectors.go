// Package vectors replays reference vectors made by running lm-eval's own
// Python helpers (each port's testdata/gen_vectors.py, with the shared
// generator library vecgen.py beside this file) through the registered
// native ports, for the ports' tests.
//
// A vectors file is a JSON list (optionally gzipped) of
//
//	{"file": "okapi/arc_multilingual/utils.py", "function": "process_docs",
//	 "kind": "process_docs", "input": ..., "output": ..., "tol": 0,
//	 "error": false, "keys": [...]}
//
// where kind is one of
//
//	doc              input a document; output doc_to_text/target/choice's value
//	process_docs     input a list of documents; output the returned documents,
//	                 keys (when given) the first output document's key order
//	process_results  input {"doc", "results", "ll"}: results are the model's
//	                 answers ([logprob, is_greedy] pairs when ll is true)
//	metric           input {"references", "predictions", "kwargs"}: a
//	                 task.MetricFunc call
//	aggregation      input the list of per-document values; seed, when
//	                 set, numpy's global seed first (np.random.seed);
//	                 pairs: the items are multiple_choice's (gold, pred)
//	                 (metrics.Pair)
//	samples          no input; output fewshot_config.samples' documents
//
// and error marks a call that raised in Python (output is then the
// exception's type name). Numbers compare exactly unless tol is set (an
// absolute tolerance, for values of numerical libraries whose summation
// order lmeval does not reproduce bit for bit).
package vectors

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/nprand"
)

// decode reads JSON as the dataset loader gives documents: whole numbers
// int64, others float64.
func decode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return err
	}
	x = numbers(x)
	b, err := json.Marshal(x)
	if err != nil {
		return err
	}
	// Round-trip into v's type, then put the int64s back.
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	restore(reflect.ValueOf(v).Elem(), x)
	return nil
}

func numbers(x any) any {
	switch t := x.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil && !strings.ContainsAny(t.String(), ".eE") {
			return i
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	}
	return x
}

// restore sets v (decoded from x's JSON) to x where v is a generic value.
func restore(v reflect.Value, x any) {
	switch v.Kind() {
	case reflect.Interface:
		if v.CanSet() {
			v.Set(reflect.ValueOf(&x).Elem())
		}
	case reflect.Map:
		if m, ok := x.(map[string]any); ok && v.Type().Elem().Kind() == reflect.Interface {
			for k, e := range m {
				v.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(&e).Elem())
			}
		}
	case reflect.Slice:
		if l, ok := x.([]any); ok {
			for i := 0; i < v.Len() && i < len(l); i++ {
				restore(v.Index(i), l[i])
			}
		}
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			return
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			if e, ok := m[tag]; ok {
				restore(v.Field(i), e)
			}
		}
	}
}

// Vector is one recorded call of a Python helper.
type Vector struct {
	File     string          `json:"file"`
	Function string          `json:"function"`
	Kind     string          `json:"kind"`
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	Tol      float64         `json:"tol"`
	Error    bool            `json:"error"`
	Keys     []string        `json:"keys"`
	Note     string          `json:"note"`
	Seed     *int64          `json:"seed"`
	Pairs    bool            `json:"pairs"`
}

// defaultSeed is lm-eval's default numpy seed.
var defaultSeed int64 = 1234

// Load reads a vectors file (.json or .json.gz).
func Load(t testing.TB, file string) []Vector {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
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

// Replay runs every vector of file through the port registered for its
// file and function and compares the results with Python's.
func Replay(t *testing.T, file string) {
	t.Helper()
	for i, v := range Load(t, file) {
		name := fmt.Sprintf("%d:%s:%s", i, v.File, v.Function)
		got, err := Call(v)
		if v.Error {
			if err == nil {
				t.Errorf("%s: Python raised %s, the port returned %v", name, v.Output, Normal(got))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var want any
		if err := json.Unmarshal(v.Output, &want); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if msg := Compare(Normal(got), want, v.Tol); msg != "" {
			t.Errorf("%s%s: %s", name, note(v), msg)
		}
		if v.Keys != nil {
			if msg := checkKeys(v); msg != "" {
				t.Errorf("%s: %s", name, msg)
			}
		}
	}
}

func note(v Vector) string {
	if v.Note == "" {
		return ""
	}
	return " (" + v.Note + ")"
}

// Lookup is the port registered for a vector's file and function.
func Lookup(v Vector) (any, error) {
	dir := path.Dir(v.File)
	name := strings.TrimSuffix(path.Base(v.File), ".py") + "." + v.Function
	fn, ok := task.LookupFunction(dir, name)
	if !ok {
		return nil, fmt.Errorf("no port of %s:%s", v.File, v.Function)
	}
	return fn, nil
}

// Call runs one vector's input through its port.
func Call(v Vector) (any, error) {
	fn, err := Lookup(v)
	if err != nil {
		return nil, err
	}
	switch v.Kind {
	case "doc":
		var d task.Doc
		if err := decode(v.Input, &d); err != nil {
			return nil, err
		}
		switch f := fn.(type) {
		case task.DocFunc:
			return f(d)
		}
		return nil, fmt.Errorf("port is %T, want task.DocFunc", fn)
	case "process_docs":
		var docs []task.Doc
		if err := decode(v.Input, &docs); err != nil {
			return nil, err
		}
		switch f := fn.(type) {
		case task.ProcessDocsFunc:
			return f(docs)
		case task.MapDocs:
			return f.Fn(docs)
		}
		return nil, fmt.Errorf("port is %T, want a process_docs", fn)
	case "process_results":
		var in struct {
			Doc     task.Doc `json:"doc"`
			Results []any    `json:"results"`
			LL      bool     `json:"ll"`
		}
		if err := decode(v.Input, &in); err != nil {
			return nil, err
		}
		if in.LL {
			for i, r := range in.Results {
				p, ok := r.([]any)
				if !ok || len(p) != 2 {
					return nil, fmt.Errorf("result %d: want [logprob, is_greedy]", i)
				}
				lp, _ := p[0].(float64)
				g, _ := p[1].(bool)
				in.Results[i] = model.LoglikelihoodResult{LogProb: lp, IsGreedy: g}
			}
		}
		f, ok := fn.(task.ProcessResultsFunc)
		if !ok {
			return nil, fmt.Errorf("port is %T, want task.ProcessResultsFunc", fn)
		}
		return f(in.Doc, in.Results)
	case "metric":
		var in struct {
			References  []any          `json:"references"`
			Predictions []any          `json:"predictions"`
			Kwargs      map[string]any `json:"kwargs"`
		}
		if err := decode(v.Input, &in); err != nil {
			return nil, err
		}
		f, ok := fn.(task.MetricFunc)
		if !ok {
			return nil, fmt.Errorf("port is %T, want task.MetricFunc", fn)
		}
		return f(context.Background(), in.References, in.Predictions, in.Kwargs)
	case "aggregation":
		var items []any
		if err := decode(v.Input, &items); err != nil {
			return nil, err
		}
		a, ok := fn.(*metrics.Aggregation)
		if !ok {
			return nil, fmt.Errorf("port is %T, want *metrics.Aggregation", fn)
		}
		if v.Pairs {
			for i, it := range items {
				l, _ := it.([]any)
				g, ok1 := l[0].(int64)
				p, ok2 := l[1].(int64)
				if len(l) != 2 || !ok1 || !ok2 {
					return nil, fmt.Errorf("item %d is not a pair of ints", i)
				}
				items[i] = metrics.Pair{Gold: int(g), Pred: int(p)}
			}
		}
		if v.Seed != nil {
			nprand.SeedGlobal(v.Seed)
			defer nprand.SeedGlobal(&defaultSeed)
		}
		return a.Fn(items)
	case "samples":
		f, ok := fn.(task.SamplesFunc)
		if !ok {
			return nil, fmt.Errorf("port is %T, want task.SamplesFunc", fn)
		}
		return f()
	}
	return nil, fmt.Errorf("unknown kind %q", v.Kind)
}

// checkKeys compares the key order a MapDocs port gives the first
// document (the input's keys, then its Columns) with Python's.
func checkKeys(v Vector) string {
	fn, _ := Lookup(v)
	m, ok := fn.(task.MapDocs)
	if !ok {
		return ""
	}
	var docs []orderedDoc
	if err := json.Unmarshal(v.Input, &docs); err != nil || len(docs) == 0 {
		return ""
	}
	keys := slices.Clone(docs[0].keys)
	for _, c := range m.Columns {
		if !slices.Contains(keys, c) {
			keys = append(keys, c)
		}
	}
	var got []string
	for _, k := range keys {
		if slices.Contains(v.Keys, k) {
			got = append(got, k)
		}
	}
	if !slices.Equal(got, v.Keys) {
		return fmt.Sprintf("key order %v, Python's %v", got, v.Keys)
	}
	return ""
}

// orderedDoc records a JSON object's key order.
type orderedDoc struct{ keys []string }

func (o *orderedDoc) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		o.keys = append(o.keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}

// Normal turns a port's value into the JSON shape of Python's: the
// harness's pair types become lists, and everything goes through JSON.
func Normal(v any) any {
	v = plain(v)
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

func plain(v any) any {
	switch x := v.(type) {
	case metrics.Pair:
		return []any{x.Gold, x.Pred}
	case metrics.Weighted:
		return []any{x.LogLik, x.Weight}
	case task.MetricDict:
		m := map[string]any{}
		for _, it := range x {
			m[it.Name] = plain(it.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = plain(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = plain(e)
		}
		return l
	case []task.Doc:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = plain(map[string]any(e))
		}
		return l
	}
	return v
}

// Compare reports how got differs from want ("" when equal), numbers
// within tol.
func Compare(got, want any, tol float64) string {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("got %v (%T), want %v", got, got, w)
		}
		if g == w || (tol > 0 && math.Abs(g-w) <= tol) {
			return ""
		}
		return fmt.Sprintf("got %v, want %v (diff %g)", g, w, g-w)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("got %v, want %v", got, w)
		}
		for i := range w {
			if m := Compare(g[i], w[i], tol); m != "" {
				return fmt.Sprintf("[%d]: %s", i, m)
			}
		}
		return ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("got %v, want %v", got, w)
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				return fmt.Sprintf("missing key %q: got %v, want %v", k, got, w)
			}
			if m := Compare(g[k], w[k], tol); m != "" {
				return fmt.Sprintf("[%q]: %s", k, m)
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("got %#v, want %#v", got, want)
	}
	return ""
}
