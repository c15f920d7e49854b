// Package vectest replays reference vectors, recorded by running lm-eval's
// own Python helpers (a port's testdata/gen_vectors.py, with vectest.py
// beside this file; for several ports at once, ports/testdata/gen_vectors.py
// writing each port's testdata/vectors_common.json), through the
// registered native ports, for the ports' unit tests, each beside its
// port. It is the one replayer: the vectors of the earlier ones
// (portvectors, vectortest, vectors, vecreplay, ports/all's) were
// converted to its format.
//
// A vectors file (.json, or .json.gz) is a JSON list of
//
//	{"file": "okapi/arc_multilingual/utils.py", "function": "process_docs",
//	 "kind": "process_docs", "input": ..., "output": ...}
//
// with file relative to lm_eval/tasks/, the port found as a task YAML in
// that file's directory would find it (task.LookupHook). Kinds:
//
//	doc              input a document; a task.DocFunc
//	process_docs     input the documents; a task.ProcessDocsFunc or
//	                 task.MapDocs (called as the task layer calls it).
//	                 seed: random.seed(seed) first (a MapDocs.FnModule's
//	                 run, a MapDocs.FnRand's stream); columns:
//	                 the input's column order (given a FnColumns), keys:
//	                 the output's, checked against pyval.Columns.Mapped
//	process_results  input {"doc", "results"}; a task.ProcessResultsFunc.
//	                 results says how the answers are given:
//	                 "loglikelihood" ([logprob, is_greedy] pairs),
//	                 "rolling" (numbers), "" (as they are: generations)
//	metric           input {"references", "predictions", "kwargs"}; a
//	                 metrics.Func (a MetricDict compares as a dict)
//	doc_metric       input {"gold", "result"}; a metrics.DocFunc on a
//	                 generate_until document
//	aggregate        an *metrics.Aggregation over input {"items": [...]}:
//	                 the items as they are, or (items "pairs" / "likelihood")
//	                 multiple_choice's (gold, pred) / (gold, lls) items;
//	                 with "metric_fn": "file:function", items are
//	                 {"references", "predictions"} calls of that metric;
//	                 with "process_results": "file:function" and "metric",
//	                 items are {"doc", "results"} (answers as results says)
//	                 whose process_results value of metric is the item.
//	                 np_seed: numpy's np.random.seed(np_seed) first
//	samples          no input; a task.SamplesFunc (fewshot samples)
//	filter           input {"args", "resps", "docs"}; a filters.Factory
//	filter_fn        input {"resps", "docs"}; a filters.FilterFunc
//	unavailable      the helper must be registered unavailable, with a
//	                 reason (task.RegisterUnavailable)
//
// error, when set, is the exception Python raised (its type name): the
// port must fail too, and with error_match its error must name it.
// Numbers: whole numbers in inputs are int64, others float64 (as the
// dataset loader gives documents); NaN and infinities are written
// {"float": "nan" | "inf" | "-inf"} in inputs and outputs. Outputs compare
// as JSON values (ints and floats alike, tuples as lists), numbers exactly
// unless tol is set (a tolerance relative to max(1, |want|)); with
// pytypes, the port's value is written as Python's json.dumps would write
// it (pyval.JSON) and ints and floats must also agree in type.
package vectest

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
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// Vector is one recorded call of a Python helper (see the package
// documentation).
type Vector struct {
	File       string            `json:"file"`
	Function   string            `json:"function"`
	Kind       string            `json:"kind"`
	Input      json.RawMessage   `json:"input"`
	Output     json.RawMessage   `json:"output"`
	Error      string            `json:"error"`
	ErrorMatch bool              `json:"error_match"`
	Tol        float64           `json:"tol"`
	PyTypes    bool              `json:"pytypes"`
	Results    string            `json:"results"`
	Items      string            `json:"items"`
	Seed       *int64            `json:"seed"`
	NPSeed     *int64            `json:"np_seed"`
	Columns    []string          `json:"columns"`
	Keys       []string          `json:"keys"`
	Env        map[string]string `json:"env"`
	Note       string            `json:"note"`
}

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
		t.Fatalf("%s: %v", file, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// Run replays every vector of file through the registered ports, and
// checks that each helper in want ("file:function") has a vector; it
// returns the vectors.
func Run(t *testing.T, file string, want ...string) []Vector {
	t.Helper()
	return RunWith(t, file, nil, want...)
}

// RunWith is Run where port, when it returns non-nil, is the hook to
// call for a vector instead of the registered port (a port with settings,
// called with the vector's Env).
func RunWith(t *testing.T, file string, port func(Vector) *task.Hook, want ...string) []Vector {
	t.Helper()
	vs := Load(t, file)
	seen := map[string]bool{}
	for i, v := range vs {
		seen[v.File+":"+v.Function] = true
		name := fmt.Sprintf("%d_%s:%s", i, v.File, v.Function)
		t.Run(name, func(t *testing.T) {
			var h *task.Hook
			if port != nil {
				h = port(v)
			}
			check(t, v, h)
		})
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no vector for %s", w)
		}
	}
	return vs
}

// Lookup is the port registered for file:function, nil when there is
// none.
func Lookup(key string) *task.Hook {
	file, fn, _ := strings.Cut(key, ":")
	h, _ := task.LookupHook(path.Dir(file), strings.TrimSuffix(path.Base(file), ".py")+"."+fn)
	return h
}

func check(t *testing.T, v Vector, h *task.Hook) {
	t.Helper()
	if h == nil {
		if h = Lookup(v.File + ":" + v.Function); h == nil {
			t.Fatalf("no port of %s:%s", v.File, v.Function)
		}
	}
	if v.Kind == "unavailable" {
		if h.Kind != task.HookUnavailable || h.Unavailable == "" {
			t.Fatalf("port is a %s hook, want one registered unavailable with a reason", h.Kind)
		}
		return
	}
	got, err := Call(v, h)
	if v.Error != "" {
		if err == nil {
			t.Fatalf("Python raised %s, the port returned %s", v.Error, show(Normal(got)))
		}
		if v.ErrorMatch && !strings.Contains(err.Error(), v.Error) {
			t.Fatalf("Python raised %s, the port failed with %v", v.Error, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if v.PyTypes {
		s, err := pyval.JSON(got, pyval.JSONOptions{Indent: -1})
		if err != nil {
			t.Fatal(err)
		}
		g, err1 := Decode([]byte(s))
		w, err2 := Decode(v.Output)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("\n got %s\nwant %s", s, v.Output)
		}
	} else {
		var want any
		if err := json.Unmarshal(v.Output, &want); err != nil {
			t.Fatal(err)
		}
		g := Normal(got)
		if msg := Diff(g, want, v.Tol); msg != "" {
			t.Errorf("%s\n got %s\nwant %s", msg, show(g), show(want))
		}
	}
	if v.Kind == "process_docs" && v.Keys != nil {
		var added []string
		if m := h.ProcessDocs; m != nil {
			added = m.Columns
		}
		docs, _ := got.([]task.Doc)
		if len(docs) > 0 {
			if k := pyval.ColumnsOf(v.Columns...).Mapped(docs, added).Names; !slices.Equal(k, v.Keys) {
				t.Errorf("columns %q, want Python's %q", k, v.Keys)
			}
		}
	}
}

// Call runs the vector's input through h (its port).
func Call(v Vector, h *task.Hook) (any, error) {
	in, err := Decode(v.Input)
	if err != nil {
		return nil, err
	}
	m, _ := in.(map[string]any)
	switch v.Kind {
	case "doc":
		f := h.DocFunc
		if f == nil {
			break
		}
		d, ok := in.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("input is %T, want a document", in)
		}
		return f(d)
	case "process_docs":
		docs, err := docList(in)
		if err != nil {
			return nil, err
		}
		var seed int64
		if v.Seed != nil {
			seed = *v.Seed
		}
		if f := h.ProcessDocs; f != nil {
			switch {
			case f.FnModule != nil: // a run of its own, after random.seed(seed)
				return f.FnModule(docs, pyrand.NewModule(seed))
			case f.FnRand != nil: // the first draws after random.seed(seed)
				return f.FnRand(docs, pyrand.New(seed))
			case f.FnColumns != nil:
				var cols *pyval.Columns
				if v.Columns != nil {
					cols = pyval.ColumnsOf(v.Columns...)
				}
				return f.FnColumns(docs, cols)
			}
			return f.Fn(docs)
		}
	case "process_results":
		f := h.ProcessResults
		if f == nil {
			break
		}
		doc, _ := m["doc"].(map[string]any)
		res, err := Results(m["results"], v.Results)
		if err != nil {
			return nil, err
		}
		return f(doc, res)
	case "metric":
		f := h.Metric
		if f == nil {
			break
		}
		refs, _ := m["references"].([]any)
		preds, _ := m["predictions"].([]any)
		kw, _ := m["kwargs"].(map[string]any)
		if kw == nil {
			kw = map[string]any{}
		}
		return f(context.Background(), refs, preds, kw)
	case "doc_metric":
		f := h.DocMetric
		if f == nil {
			break
		}
		gold, _ := m["gold"].(string)
		result, _ := m["result"].(string)
		return f(metrics.Spec{}, &metrics.DocResult{OutputType: "generate_until", Golds: []string{gold}, Result: result})
	case "aggregate":
		agg := h.Aggregation
		if agg == nil {
			break
		}
		items, err := aggItems(v, m)
		if err != nil {
			return nil, err
		}
		// numpy as np.random.seed(np_seed) left it (lm-eval's 1234 by
		// default).
		return agg.Apply(nprand.NewContext(context.Background(), v.NPSeed), items)
	case "samples":
		if f := h.Samples; f != nil {
			return f()
		}
	case "filter":
		fac := h.Filter
		if fac == nil {
			break
		}
		args, _ := m["args"].(map[string]any)
		if args == nil {
			args = map[string]any{}
		}
		resps, _ := m["resps"].([]any)
		docs, err := docList(m["docs"])
		if err != nil {
			return nil, err
		}
		f, err := fac(args)
		if err != nil {
			return nil, err
		}
		return f.Apply(resps, docs)
	case "filter_fn":
		f := h.FilterFunc
		if f == nil {
			break
		}
		resps, _ := m["resps"].([]any)
		docs, err := docList(m["docs"])
		if err != nil {
			return nil, err
		}
		return f(resps, docs)
	default:
		return nil, fmt.Errorf("unknown vector kind %q", v.Kind)
	}
	return nil, fmt.Errorf("%s:%s is registered as a %s hook, which kind %q cannot call", v.File, v.Function, h.Kind, v.Kind)
}

func aggItems(v Vector, m map[string]any) ([]any, error) {
	raw, _ := m["items"].([]any)
	items := make([]any, len(raw))
	if name, _ := m["metric_fn"].(string); name != "" {
		h := Lookup(name)
		if h == nil || h.Metric == nil {
			return nil, fmt.Errorf("%s is not a registered metric function (task.RegisterMetric)", name)
		}
		mf := h.Metric
		for i, r := range raw {
			c, _ := r.(map[string]any)
			refs, _ := c["references"].([]any)
			preds, _ := c["predictions"].([]any)
			x, err := mf(context.Background(), refs, preds, map[string]any{})
			if err != nil {
				return nil, fmt.Errorf("item %d: %s: %w", i, name, err)
			}
			items[i] = x
		}
		return items, nil
	}
	if name, _ := m["process_results"].(string); name != "" {
		h := Lookup(name)
		if h == nil || h.ProcessResults == nil {
			return nil, fmt.Errorf("%s is not a registered process_results (task.RegisterProcessResults)", name)
		}
		pr := h.ProcessResults
		metric, _ := m["metric"].(string)
		for i, r := range raw {
			c, _ := r.(map[string]any)
			doc, _ := c["doc"].(map[string]any)
			res, err := Results(c["results"], v.Results)
			if err != nil {
				return nil, err
			}
			out, err := pr(doc, res)
			if err != nil {
				return nil, fmt.Errorf("item %d: %s: %w", i, name, err)
			}
			x, ok := out[metric]
			if !ok {
				return nil, fmt.Errorf("item %d: %s gave no %s", i, name, metric)
			}
			items[i] = x
		}
		return items, nil
	}
	for i, e := range raw {
		items[i] = e
		if v.Items == "" {
			continue
		}
		p, _ := e.([]any)
		if len(p) != 2 {
			return nil, fmt.Errorf("item %d is not a pair", i)
		}
		g, ok := p[0].(int64)
		if !ok {
			return nil, fmt.Errorf("item %d: gold %v is not an int", i, p[0])
		}
		switch v.Items {
		case "pairs":
			q, ok := p[1].(int64)
			if !ok {
				return nil, fmt.Errorf("item %d: prediction %v is not an int", i, p[1])
			}
			items[i] = metrics.Pair{Gold: int(g), Pred: int(q)}
		case "likelihood":
			lls, _ := p[1].([]any)
			fs := make([]float64, len(lls))
			for j, x := range lls {
				fs[j] = num(x)
			}
			items[i] = metrics.Likelihood{Gold: int(g), LogLiks: fs}
		default:
			return nil, fmt.Errorf("unknown items %q", v.Items)
		}
	}
	return items, nil
}

// Results turns recorded answers into what the task layer hands a
// process_results port: as "loglikelihood" [logprob, is_greedy] pairs
// become model.LoglikelihoodResult, as "rolling" numbers
// model.RollingResult; otherwise they stay as they are.
func Results(v any, as string) ([]any, error) {
	rs, _ := v.([]any)
	out := make([]any, len(rs))
	for i, r := range rs {
		switch as {
		case "":
			out[i] = r
		case "loglikelihood":
			p, ok := r.([]any)
			if !ok || len(p) != 2 {
				return nil, fmt.Errorf("result %d is not a [logprob, is_greedy] pair", i)
			}
			g, _ := p[1].(bool)
			out[i] = model.LoglikelihoodResult{LogProb: num(p[0]), IsGreedy: g}
		case "rolling":
			out[i] = model.RollingResult{LogProb: num(r)}
		default:
			return nil, fmt.Errorf("unknown results %q", as)
		}
	}
	return out, nil
}

func docList(v any) ([]task.Doc, error) {
	l, ok := v.([]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("%T, want a list of documents", v)
	}
	out := make([]task.Doc, len(l))
	for i, e := range l {
		if out[i], ok = e.(map[string]any); !ok {
			return nil, fmt.Errorf("document %d is %T", i, e)
		}
	}
	return out, nil
}

// Decode reads vector JSON with Python's types: a number with a fraction
// or exponent is a float64, any other an int64 (as the task layer's
// documents have them), {"float": "nan"} and the like the special floats.
func Decode(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i
			}
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		if f, ok := special(x); ok {
			return f
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

// special is the float a {"float": "nan" | "inf" | "-inf"} stands for.
func special(m map[string]any) (float64, bool) {
	if len(m) != 1 {
		return 0, false
	}
	switch m["float"] {
	case "nan":
		return math.NaN(), true
	case "inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	}
	return 0, false
}

func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// Normal writes a port's value as the JSON value of Python's: tuples and
// lists as lists, the harness's pair types as the tuples they stand for,
// a MetricDict as a dict, numbers float64, NaN and infinities as
// {"float": ...}.
func Normal(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case task.SampleValuer:
		return Normal(x.SampleValue())
	case metrics.Values:
		m := map[string]any{}
		for _, it := range x {
			m[it.Name] = Normal(it.Value)
		}
		return m
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
			return map[string]any{"float": "nan"}
		case math.IsInf(x, 1):
			return map[string]any{"float": "inf"}
		case math.IsInf(x, -1):
			return map[string]any{"float": "-inf"}
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
	case reflect.Float32, reflect.Float64:
		return Normal(rv.Float())
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return rv.Bool()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unmarshalable %T: %v", v, err)
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return string(b)
	}
	return out
}

// Diff describes how got differs from want ("" when they agree), both
// normalized, numbers within tol relative to max(1, |want|).
func Diff(got, want any, tol float64) string {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("got %s (%T), want %v", show(got), got, w)
		}
		if g == w || (tol > 0 && math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))) {
			return ""
		}
		return fmt.Sprintf("got %v, want %v (diff %g)", g, w, g-w)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("got %s, want a list of %d", show(got), len(w))
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
			return fmt.Sprintf("got %s, want a dict with keys %v", show(got), keys(w))
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				return fmt.Sprintf("missing key %q", k)
			}
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
	slices.Sort(out)
	return out
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	if len(b) > 2000 {
		b = append(b[:2000], "..."...)
	}
	return string(b)
}
