package afrobench

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// vector is one call of lm-eval's function (testdata/gen_vectors.py):
// its output, or the Python exception it raised.
type vector struct {
	Items    []any          `json:"items"`
	Doc      map[string]any `json:"doc"`
	Resps    []any          `json:"resps"`
	Function string         `json:"function"`
	Output   any            `json:"output"`
	Error    string         `json:"error"`
}

func load(t *testing.T) map[string][]vector {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string][]vector
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// norm makes JSON numbers of a document ints, as the dataset loader
// gives them.
func norm(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) {
			return int64(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = norm(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = norm(e)
		}
		return out
	}
	return v
}

func checkAgg(t *testing.T, name string, fn func([]any) (float64, error), vs []vector) {
	t.Helper()
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", name)
	}
	for i, c := range vs {
		got, err := fn(c.Items)
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("%s %d: err %v, want %q", name, i, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %d: %v", name, i, err)
			continue
		}
		if want := c.Output.(float64); got != want {
			t.Errorf("%s %d: %v, want %v", name, i, got, want)
		}
	}
}

func TestAggregations(t *testing.T) {
	v := load(t)
	checkAgg(t, "afriqa f1", AfriQAF1, v["afriqa_f1"])
	checkAgg(t, "span_f1_agg", SpanF1, v["span_f1_agg"])
	checkAgg(t, "acc_score", AccScore, v["acc_score"])
	checkAgg(t, "rougeL_agg", RougeLAgg, v["rougeL_agg"])
}

func TestFilters(t *testing.T) {
	v := load(t)
	for _, name := range []string{"format_span", "regex_pos"} {
		f, ok := filters.Lookup(name)
		if !ok {
			t.Fatalf("filter %s not registered", name)
		}
		impl, err := f(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		if len(v[name]) == 0 {
			t.Fatalf("%s: no vectors", name)
		}
		for i, c := range v[name] {
			got, err := impl.Apply([]any{c.Resps}, nil)
			if err != nil {
				t.Fatalf("%s %d: %v", name, i, err)
			}
			if !reflect.DeepEqual(got[0], c.Output) {
				t.Errorf("%s %d (%q): %#v, want %#v", name, i, c.Resps, got[0], c.Output)
			}
		}
	}
}

func TestDocFuncs(t *testing.T) {
	v := load(t)
	fns := map[string]func(task.Doc) (any, error){
		"get_target":              func(d task.Doc) (any, error) { return GetTarget(d) },
		"get_target_reverse":      func(d task.Doc) (any, error) { return GetTargetReverse(d) },
		"create_text_prompt_1":    func(d task.Doc) (any, error) { return CreateTextPrompt1(d) },
		"create_reverse_prompt_1": func(d task.Doc) (any, error) { return CreateReversePrompt1(d) },
		"create_reverse_prompt_3": func(d task.Doc) (any, error) { return CreateReversePrompt3(d) },
		"create_text_prompt_2":    func(d task.Doc) (any, error) { return CreateTextPrompt2(d) },
		"create_reverse_prompt_2": func(d task.Doc) (any, error) { return CreateReversePrompt2(d) },
	}
	n := 0
	for _, c := range v["mafand"] {
		fn, ok := fns[c.Function]
		if !ok {
			continue // create_text_prompt_3: no YAML names it
		}
		n++
		got, err := fn(c.Doc)
		if tuple, isTuple := c.Output.([]any); isTuple {
			// A 1-tuple: lm-eval fails on it (Context is not a string!).
			if err == nil || !strings.Contains(err.Error(), "Context is not a string! : ("+pyval.Repr(tuple[0])+",)") {
				t.Errorf("%s(%v): err %v, want lm-eval's assertion on %q", c.Function, c.Doc, err, tuple[0])
			}
			continue
		}
		if err != nil || got != c.Output {
			t.Errorf("%s(%v) = %q, %v; want %q", c.Function, c.Doc, got, err, c.Output)
		}
	}
	if n < 30 {
		t.Fatalf("%d mafand vectors", n)
	}
	for i, c := range v["pos_doc_to_target"] {
		got, err := POSDocToTarget(norm(c.Doc).(map[string]any))
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("pos doc_to_target %d: err %v, want %q", i, err, c.Error)
			}
			continue
		}
		want := c.Output.([]any)
		if err != nil || !reflect.DeepEqual(got, want) && !(len(want) == 0 && len(got.([]any)) == 0) {
			t.Errorf("pos doc_to_target %d: %v, %v; want %v", i, got, err, want)
		}
	}
}

func TestRougeLMetric(t *testing.T) {
	v := load(t)
	if !strings.Contains(v["rougeL"][0].Error, "unexpected keyword argument 'references'") {
		t.Fatalf("lm-eval's rougeL accepted references=: %+v", v["rougeL"][0])
	}
	got, err := RougeLMetric(context.Background(), []any{"g"}, []any{"p"}, nil)
	if err != nil || !reflect.DeepEqual(got, []any{"g", "p"}) {
		t.Errorf("rougeL = %v, %v", got, err)
	}
}
