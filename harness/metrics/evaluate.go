package metrics

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/python/pyval"
)

// Hugging Face evaluate's metrics, natively. lm-eval loads one with
// evaluate.load(name) when a metric_list entry says hf_evaluate: true, or
// names a metric its own registry lacks, and for a generate_until task
// calls its compute(references=[gold], predictions=[answer], **kwargs) per
// document; the dict it returns becomes the document's values. The
// metrics here do what evaluate's metric scripts do: cast the inputs to
// their features (int32 labels: Python's int(); text must be str) and call
// scikit-learn (sklearn.go) or compare text (exact_match).

// EvaluateMetric is one of evaluate's metrics.
type EvaluateMetric struct {
	Name string
	// Compute is evaluate.load(Name).compute(references=refs,
	// predictions=preds, **kwargs): a Values dict (or, for metrics whose
	// script returns a bare number, a float64).
	Compute func(refs, preds []any, kwargs map[string]any) (any, error)
}

// Func is the metric as lm-eval calls it for a generate_until document:
// compute on references and predictions; a dict comes back as Values.
func (e EvaluateMetric) Func() Func {
	return func(_ context.Context, refs, preds []any, kwargs map[string]any) (any, error) {
		return e.Compute(refs, preds, kwargs)
	}
}

// Values is a metric's dict result, in the dict's order (of a Func, an
// EvaluateMetric).
type Values []NamedValue

// NamedValue is one key of Values.
type NamedValue struct {
	Name  string
	Value any
}

// Get returns the value of key name.
func (v Values) Get(name string) (any, bool) {
	for _, e := range v {
		if e.Name == name {
			return e.Value, true
		}
	}
	return nil, false
}

var (
	evalMu      sync.RWMutex
	evalMetrics = map[string]EvaluateMetric{}
)

// RegisterEvaluate adds one of evaluate's metrics; it panics on a
// duplicate name.
func RegisterEvaluate(m EvaluateMetric) {
	evalMu.Lock()
	defer evalMu.Unlock()
	if _, dup := evalMetrics[m.Name]; dup {
		panic("metrics: duplicate evaluate metric " + m.Name)
	}
	evalMetrics[m.Name] = m
}

// LookupEvaluate returns the evaluate metric registered as name.
func LookupEvaluate(name string) (EvaluateMetric, bool) {
	evalMu.RLock()
	defer evalMu.RUnlock()
	m, ok := evalMetrics[name]
	return m, ok
}

// EvaluateNames lists the registered evaluate metrics, sorted.
func EvaluateNames() []string {
	evalMu.RLock()
	defer evalMu.RUnlock()
	out := make([]string, 0, len(evalMetrics))
	for n := range evalMetrics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Known reports whether a metric_list name resolves: a metric of lm-eval's
// registry (Lookup) or one of evaluate's.
func Known(name string) bool {
	if _, ok := Lookup(name); ok {
		return true
	}
	_, ok := LookupEvaluate(name)
	return ok
}

// int32Labels casts a feature column as evaluate does for
// datasets.Value("int32"): Python's int() of each value, which must fit
// in 32 bits.
func int32Labels(what string, xs []any) ([]int, error) {
	out := make([]int, len(xs))
	for i, x := range xs {
		n, err := pyval.Int(x)
		if err != nil {
			return nil, fmt.Errorf("%s don't match the expected format (Value(dtype='int32')): %s: %w", what, pyval.Repr(x), err)
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("%s don't match the expected format (Value(dtype='int32')): %d out of range", what, n)
		}
		out[i] = int(n)
	}
	return out, nil
}

// textInputs checks a Value("string") feature column: every value text.
func textInputs(what string, xs []any) ([]string, error) {
	out := make([]string, len(xs))
	for i, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("%s don't match the expected format (Value(dtype='string')): expected type str but got %s", what, pyType(x))
		}
		out[i] = s
	}
	return out, nil
}

func pyType(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int, int64:
		return "int"
	case float64:
		return "float"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// classInputs casts references and predictions to labels.
func classInputs(refs, preds []any) (yTrue, yPred []int, err error) {
	if len(refs) != len(preds) {
		return nil, nil, fmt.Errorf("Mismatch in the number of predictions (%d) and references (%d)", len(preds), len(refs))
	}
	if yTrue, err = int32Labels("references", refs); err != nil {
		return nil, nil, err
	}
	if yPred, err = int32Labels("predictions", preds); err != nil {
		return nil, nil, err
	}
	return yTrue, yPred, nil
}

// kwargReader reads a compute call's keyword arguments, rejecting the
// ones the metric's _compute does not take (Python's TypeError).
type kwargReader struct {
	metric string
	kw     map[string]any
	known  []string
}

func (k *kwargReader) check() error {
	var bad []string
	for name := range k.kw {
		ok := false
		for _, n := range k.known {
			ok = ok || n == name
		}
		if !ok {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("TypeError: %s's _compute() got an unexpected keyword argument '%s'", k.metric, bad[0])
	}
	return nil
}

func (k *kwargReader) labels(name string) ([]int, error) {
	v, ok := k.kw[name]
	if !ok || v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a list of labels, got %s", k.metric, name, pyval.Repr(v))
	}
	out := make([]int, len(l))
	for i, e := range l {
		n, err := pyval.Int(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", k.metric, name, err)
		}
		out[i] = int(n)
	}
	return out, nil
}

func (k *kwargReader) weights(n int) ([]float64, error) {
	v, ok := k.kw["sample_weight"]
	if !ok || v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok || len(l) != n {
		return nil, fmt.Errorf("%s: sample_weight must be a list of %d numbers, got %s", k.metric, n, pyval.Repr(v))
	}
	out := make([]float64, n)
	for i, e := range l {
		f, err := pyval.Float(e)
		if err != nil {
			return nil, fmt.Errorf("%s: sample_weight: %w", k.metric, err)
		}
		out[i] = f
	}
	return out, nil
}

func (k *kwargReader) int(name string, def int) (int, error) {
	v, ok := k.kw[name]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case bool: // a Python bool is an int
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("%s: %s must be a label (an integer), got %s", k.metric, name, pyval.Repr(v))
}

func (k *kwargReader) average(def string) (string, error) {
	v, ok := k.kw["average"]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		switch x {
		case "binary", "micro", "macro", "weighted", "samples":
			return x, nil
		}
	}
	return "", fmt.Errorf("%s: average has to be one of (None, 'micro', 'macro', 'weighted', 'samples'), got %s", k.metric, pyval.Repr(v))
}

// zeroDivision reads zero_division: "warn" (0, with a warning), 0, 1 or
// NaN.
func (k *kwargReader) zeroDivision() (value float64, warn bool, err error) {
	v, ok := k.kw["zero_division"]
	if !ok {
		return 0, true, nil
	}
	switch x := v.(type) {
	case string:
		if x == "warn" {
			return 0, true, nil
		}
	case int:
		if x == 0 || x == 1 {
			return float64(x), false, nil
		}
	case bool:
		if x {
			return 1, false, nil
		}
		return 0, false, nil
	case float64:
		if x == 0 || x == 1 || math.IsNaN(x) {
			return x, false, nil
		}
	}
	return 0, false, fmt.Errorf(`%s: zero_division must be "warn", 0, 1 or nan, got %s`, k.metric, pyval.Repr(v))
}

func (k *kwargReader) bool(name string) (bool, error) {
	v, ok := k.kw[name]
	if !ok || v == nil {
		return false, nil
	}
	return pyval.Truthy(v), nil
}

// prfMetric is evaluate's f1, precision or recall.
func prfMetric(name, ratio string, zeroDivisionArg bool) EvaluateMetric {
	known := []string{"labels", "pos_label", "average", "sample_weight"}
	if zeroDivisionArg {
		known = append(known, "zero_division")
	}
	return EvaluateMetric{Name: name, Compute: func(refs, preds []any, kwargs map[string]any) (any, error) {
		k := &kwargReader{metric: name, kw: kwargs, known: known}
		if err := k.check(); err != nil {
			return nil, err
		}
		yTrue, yPred, err := classInputs(refs, preds)
		if err != nil {
			return nil, err
		}
		o := PRFOptions{WarnFor: []string{ratio}, Warn: warnOnce}
		if o.Labels, err = k.labels("labels"); err != nil {
			return nil, err
		}
		if o.PosLabel, err = k.int("pos_label", 1); err != nil {
			return nil, err
		}
		if o.Average, err = k.average("binary"); err != nil {
			return nil, err
		}
		if o.SampleWeight, err = k.weights(len(yTrue)); err != nil {
			return nil, err
		}
		if zeroDivisionArg {
			var warn bool
			if o.ZeroDivision, warn, err = k.zeroDivision(); err != nil {
				return nil, err
			}
			if !warn {
				o.Warn = nil
			}
		}
		p, r, f, err := PrecisionRecallFScore(yTrue, yPred, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		score := map[string][]float64{"precision": p, "recall": r, "f-score": f}[ratio]
		var v any = score
		if len(score) == 1 {
			v = score[0] // float(score) for a single value, the array otherwise
		}
		return Values{{name, v}}, nil
	}}
}

func init() {
	for _, m := range []EvaluateMetric{
		prfMetric("f1", "f-score", false),
		prfMetric("precision", "precision", true),
		prfMetric("recall", "recall", true),
		{Name: "accuracy", Compute: func(refs, preds []any, kwargs map[string]any) (any, error) {
			k := &kwargReader{metric: "accuracy", kw: kwargs, known: []string{"normalize", "sample_weight"}}
			if err := k.check(); err != nil {
				return nil, err
			}
			yTrue, yPred, err := classInputs(refs, preds)
			if err != nil {
				return nil, err
			}
			normalize := true
			if v, ok := kwargs["normalize"]; ok {
				normalize = pyval.Truthy(v)
			}
			w, err := k.weights(len(yTrue))
			if err != nil {
				return nil, err
			}
			a, err := AccuracyScore(yTrue, yPred, normalize, w)
			if err != nil {
				return nil, fmt.Errorf("accuracy: %w", err)
			}
			return Values{{"accuracy", a}}, nil
		}},
		{Name: "matthews_correlation", Compute: func(refs, preds []any, kwargs map[string]any) (any, error) {
			k := &kwargReader{metric: "matthews_correlation", kw: kwargs, known: []string{"sample_weight", "average"}}
			if err := k.check(); err != nil {
				return nil, err
			}
			yTrue, yPred, err := classInputs(refs, preds)
			if err != nil {
				return nil, err
			}
			w, err := k.weights(len(yTrue))
			if err != nil {
				return nil, err
			}
			m, err := MatthewsCorrcoef(yTrue, yPred, w)
			if err != nil {
				return nil, fmt.Errorf("matthews_correlation: %w", err)
			}
			return Values{{"matthews_correlation", m}}, nil
		}},
		{Name: "exact_match", Compute: func(refs, preds []any, kwargs map[string]any) (any, error) {
			k := &kwargReader{metric: "exact_match", kw: kwargs, known: []string{"regexes_to_ignore", "ignore_case", "ignore_punctuation", "ignore_numbers"}}
			if err := k.check(); err != nil {
				return nil, err
			}
			if len(refs) != len(preds) {
				return nil, fmt.Errorf("Mismatch in the number of predictions (%d) and references (%d)", len(preds), len(refs))
			}
			rs, err := textInputs("references", refs)
			if err != nil {
				return nil, err
			}
			ps, err := textInputs("predictions", preds)
			if err != nil {
				return nil, err
			}
			o, err := evaluateExactMatchOptions(k)
			if err != nil {
				return nil, err
			}
			return Values{{"exact_match", ExactMatchMean(ps, rs, o)}}, nil
		}},
	} {
		RegisterEvaluate(m)
	}
}

// evaluateExactMatchOptions reads exact_match's kwargs as its _compute
// does: flags by truthiness, regexes_to_ignore a list of patterns (None:
// none).
func evaluateExactMatchOptions(k *kwargReader) (ExactMatchOptions, error) {
	kw := map[string]any{}
	for _, name := range []string{"ignore_case", "ignore_punctuation", "ignore_numbers"} {
		b, err := k.bool(name)
		if err != nil {
			return ExactMatchOptions{}, err
		}
		kw[name] = b
	}
	if v, ok := k.kw["regexes_to_ignore"]; ok && v != nil {
		kw["regexes_to_ignore"] = v
	}
	return ParseExactMatchOptions(kw)
}

// ExactMatchMean is evaluate's exact_match over lists: the mean of the
// equalities after normalisation. numpy's fixed-width text arrays drop
// trailing NUL characters, so "a\x00" equals "a".
func ExactMatchMean(preds, refs []string, o ExactMatchOptions) float64 {
	hits := make([]float64, len(preds))
	for i := range preds {
		p := strings.TrimRight(o.normalize(preds[i]), "\x00")
		r := strings.TrimRight(o.normalize(refs[i]), "\x00")
		if p == r {
			hits[i] = 1
		}
	}
	if len(hits) == 0 {
		return math.NaN() // np.mean([]) with a RuntimeWarning
	}
	return npSum(hits) / float64(len(hits))
}
