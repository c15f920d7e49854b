package metrics

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// sklearnVectors are testdata/sklearn_vectors.json, made by
// testdata/gen_sklearn.py with Debian's scikit-learn and numpy.
type sklearnVectors struct {
	Cases []struct {
		Kind     string         `json:"kind"`
		YTrue    []int          `json:"y_true"`
		YPred    []int          `json:"y_pred"`
		Kwargs   map[string]any `json:"kwargs"`
		Want     any            `json:"want"`
		Error    string         `json:"error"`
		Warnings []string       `json:"warnings"`
	} `json:"cases"`
	Evaluate []struct {
		Metric      string         `json:"metric"`
		References  []any          `json:"references"`
		Predictions []any          `json:"predictions"`
		Kwargs      map[string]any `json:"kwargs"`
		Want        map[string]any `json:"want"`
		Error       string         `json:"error"`
	} `json:"evaluate"`
	Sums []struct {
		Xs   []float64 `json:"xs"`
		Sum  float64   `json:"sum"`
		Mean float64   `json:"mean"`
	} `json:"sums"`
}

func loadSklearn(t *testing.T) sklearnVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/sklearn_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		t.Fatal(err)
	}
	// Re-encode with whole JSON numbers as Go ints (YAML's types).
	norm, _ := json.Marshal(raw)
	var v sklearnVectors
	if err := json.Unmarshal(norm, &v); err != nil {
		t.Fatal(err)
	}
	for i := range v.Evaluate {
		e := &v.Evaluate[i]
		e.Kwargs = intsOf(e.Kwargs).(map[string]any)
		e.References = intsOf(e.References).([]any)
		e.Predictions = intsOf(e.Predictions).([]any)
	}
	for i := range v.Cases {
		v.Cases[i].Kwargs = intsOf(v.Cases[i].Kwargs).(map[string]any)
	}
	return v
}

// intsOf turns whole float64s (JSON numbers written without a fraction
// are whole) into ints, as YAML and lm-eval's documents carry them.
func intsOf(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<31 {
			return int(x)
		}
	case []any:
		for i := range x {
			x[i] = intsOf(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = intsOf(x[k])
		}
	}
	return v
}

func wantFloat(v any) float64 {
	switch x := v.(type) {
	case string:
		if x == "nan" {
			return math.NaN()
		}
	case float64:
		return x
	case int:
		return float64(x)
	}
	panic("bad want")
}

// ulps is the distance of a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

func TestSklearnVectors(t *testing.T) {
	v := loadSklearn(t)
	if len(v.Cases) < 1000 {
		t.Fatalf("only %d cases", len(v.Cases))
	}
	for i, c := range v.Cases {
		var warnings []string
		o := PRFOptions{PosLabel: 1, Average: "binary", WarnFor: []string{map[string]string{"f1": "f-score", "precision": "precision", "recall": "recall"}[c.Kind]},
			Warn: func(m string) { warnings = append(warnings, m) }}
		var w []float64
		for k, x := range c.Kwargs {
			switch k {
			case "average":
				o.Average, _ = x.(string)
			case "pos_label":
				o.PosLabel = x.(int)
			case "labels":
				for _, l := range x.([]any) {
					o.Labels = append(o.Labels, l.(int))
				}
			case "zero_division":
				o.ZeroDivision, o.Warn = float64(x.(int)), nil
			case "sample_weight":
				for _, e := range x.([]any) {
					f, _ := Float(e)
					w = append(w, f)
				}
				o.SampleWeight = w
			}
		}
		var got []float64
		var err error
		switch c.Kind {
		case "f1", "precision", "recall":
			var p, r, f []float64
			p, r, f, err = PrecisionRecallFScore(c.YTrue, c.YPred, o)
			got = map[string][]float64{"f1": f, "precision": p, "recall": r}[c.Kind]
		case "accuracy":
			normalize := c.Kwargs["normalize"] != false
			var a float64
			a, err = AccuracyScore(c.YTrue, c.YPred, normalize, w)
			got = []float64{a}
		case "matthews_correlation":
			var m float64
			m, err = MatthewsCorrcoef(c.YTrue, c.YPred, nil)
			got = []float64{m}
		}
		name := func() string {
			return c.Kind + " " + string(mustJSON(c.Kwargs)) + " " + string(mustJSON(c.YTrue)) + " " + string(mustJSON(c.YPred))
		}
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("case %d %s: err %v, want %q", i, name(), err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d %s: %v", i, name(), err)
			continue
		}
		var want []float64
		if l, ok := c.Want.([]any); ok {
			for _, x := range l {
				want = append(want, wantFloat(x))
			}
		} else {
			want = []float64{wantFloat(c.Want)}
		}
		if len(got) != len(want) {
			t.Errorf("case %d %s: %v, want %v", i, name(), got, want)
			continue
		}
		// sklearn 1.2.1 (the reference) computes the F-score as 2PR/(P+R);
		// 1.3+ (reproduced) as 2tp/(true+pred): equal but for rounding.
		tol := 0.0
		if c.Kind == "f1" {
			tol = 2
			if w != nil {
				tol = 8 // from float weights, the two formulas round further apart
			}
		}
		for j := range got {
			if d := ulps(got[j], want[j]); d > tol {
				t.Errorf("case %d %s: [%d] = %v, want %v (%v ulps)", i, name(), j, got[j], want[j], d)
			}
		}
		sort.Strings(warnings)
		warnings = dedup(warnings)
		if !reflect.DeepEqual(warnings, c.Warnings) && !(len(warnings) == 0 && len(c.Warnings) == 0) {
			t.Errorf("case %d %s: warnings %q, want %q", i, name(), warnings, c.Warnings)
		}
	}
}

func dedup(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestEvaluateComputeVectors(t *testing.T) {
	v := loadSklearn(t)
	for i, c := range v.Evaluate {
		m, ok := LookupEvaluate(c.Metric)
		if !ok {
			t.Fatalf("evaluate metric %s not registered", c.Metric)
		}
		got, err := m.Compute(c.References, c.Predictions, c.Kwargs)
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("case %d %s(%v, %v, %v): err %v, want %q", i, c.Metric, c.References, c.Predictions, c.Kwargs, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d %s(%v, %v, %v): %v", i, c.Metric, c.References, c.Predictions, c.Kwargs, err)
			continue
		}
		vals := got.(Values)
		if len(vals) != len(c.Want) {
			t.Errorf("case %d: %v, want %v", i, vals, c.Want)
		}
		for k, w := range c.Want {
			g, ok := vals.Get(k)
			if !ok || ulps(g.(float64), wantFloat(w)) > 2 {
				t.Errorf("case %d %s(%v, %v, %v): %s = %v, want %v", i, c.Metric, c.References, c.Predictions, c.Kwargs, k, g, w)
			}
		}
	}
}

func TestNumpySum(t *testing.T) {
	for _, c := range loadSklearn(t).Sums {
		if got := npSum(c.Xs); got != c.Sum {
			t.Errorf("npSum(%d values) = %v, want numpy's %v", len(c.Xs), got, c.Sum)
		}
		if got := npSum(c.Xs) / float64(len(c.Xs)); got != c.Mean {
			t.Errorf("mean(%d values) = %v, want numpy's %v", len(c.Xs), got, c.Mean)
		}
	}
}

func TestEvaluateKwargs(t *testing.T) {
	f1, _ := LookupEvaluate("f1")
	if _, err := f1.Compute([]any{1}, []any{1}, map[string]any{"ignore_case": true}); err == nil || !strings.Contains(err.Error(), "unexpected keyword argument 'ignore_case'") {
		t.Errorf("f1 with ignore_case: err %v, want a TypeError", err)
	}
	if _, err := f1.Compute([]any{"x"}, []any{1}, nil); err == nil {
		t.Error("f1 of text: want an error (int32 features)")
	}
	em, _ := LookupEvaluate("exact_match")
	got, err := em.Compute([]any{"The Cat.", "dog"}, []any{"the cat", "Dog!"}, map[string]any{"ignore_case": true, "ignore_punctuation": true})
	if err != nil || got.(Values)[0].Value != 1.0 {
		t.Errorf("exact_match = %v, %v; want 1", got, err)
	}
	got, _ = em.Compute([]any{"a1", "b"}, []any{"a2", "c"}, map[string]any{"ignore_numbers": true, "regexes_to_ignore": []any{"^b$", "^c$"}})
	if got.(Values)[0].Value != 1.0 {
		t.Errorf("exact_match with ignore_numbers, regexes = %v; want 1", got)
	}
	if _, err := em.Compute([]any{"a"}, []any{3}, nil); err == nil || !strings.Contains(err.Error(), "expected type str but got int") {
		t.Errorf("exact_match of an int: err %v", err)
	}
	acc, _ := LookupEvaluate("accuracy")
	if got, _ := acc.Compute([]any{1, 2, 3}, []any{1, 2, 0}, map[string]any{"normalize": false}); got.(Values)[0].Value != 2.0 {
		t.Errorf("accuracy normalize=False = %v, want 2", got)
	}
}

func TestNewSpecEvaluate(t *testing.T) {
	if s := NewSpec("f1", true); s.Evaluate == nil || s.Evaluate.Name != "f1" || !s.HFEvaluate {
		t.Errorf("f1 with hf_evaluate: %+v", s)
	}
	if s := NewSpec("accuracy", false); s.Evaluate == nil || !s.Registered || s.Aggregation != "" {
		t.Errorf("accuracy (not in lm-eval's registry, no aggregation of its own): %+v", s)
	}
	if s := NewSpec("exact_match", false); s.Evaluate != nil {
		t.Errorf("exact_match without hf_evaluate is lm-eval's own: %+v", s)
	}
}
