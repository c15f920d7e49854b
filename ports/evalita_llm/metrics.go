package evalita_llm

import (
	"fmt"
	"sort"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyval"
)

// F1PerLabel is sklearn.metrics.f1_score(y_true, y_pred, average=None): the
// F1 of each label of the sorted union of both, 2tp/(2tp+fp+fn) (0 when
// undefined, as zero_division="warn"), with the labels.
func F1PerLabel(yTrue, yPred []int64) ([]float64, []int64, error) {
	if len(yTrue) != len(yPred) {
		return nil, nil, fmt.Errorf("ValueError: Found input variables with inconsistent numbers of samples: [%d, %d]", len(yTrue), len(yPred))
	}
	if len(yTrue) == 0 {
		return nil, nil, fmt.Errorf("ValueError: empty inputs")
	}
	seen := map[int64]bool{}
	for i := range yTrue {
		seen[yTrue[i]], seen[yPred[i]] = true, true
	}
	labels := make([]int64, 0, len(seen))
	for l := range seen {
		labels = append(labels, l)
	}
	sort.Slice(labels, func(i, j int) bool { return labels[i] < labels[j] })
	out := make([]float64, len(labels))
	for k, l := range labels {
		var tp, fp, fn float64
		for i := range yTrue {
			t, p := yTrue[i] == l, yPred[i] == l
			switch {
			case t && p:
				tp++
			case p:
				fp++
			case t:
				fn++
			}
		}
		if d := 2*tp + fp + fn; d > 0 {
			out[k] = 2 * tp / d
		}
	}
	return out, labels, nil
}

// pair reads a per-document (a, b) value: metrics.Pair (multiple_choice's
// f1: gold, prediction) or a two-item list.
func pair(v any) (any, any, error) {
	switch x := v.(type) {
	case metrics.Pair:
		return int64(x.Gold), int64(x.Pred), nil
	case []any:
		if len(x) == 2 {
			return x[0], x[1], nil
		}
	}
	return nil, nil, fmt.Errorf("value is %T, want a pair", v)
}

func ints(v any) ([]int64, error) {
	l, ok := pyfn.AsList(v)
	if !ok {
		if iv, ok := v.([]int64); ok {
			return iv, nil
		}
		return nil, fmt.Errorf("TypeError: %s is not a list of labels", pydoc.TypeName(v))
	}
	out := make([]int64, len(l))
	for i, x := range l {
		n, err := pyval.Int(x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// saLabels is _aggreg_sa's _map_to_original_labels: each class as its
// (opos, oneg) bits; other values are skipped.
func saLabels(xs []int64) (opos, oneg []int64) {
	for _, x := range xs {
		switch x {
		case 0:
			opos, oneg = append(opos, 1), append(oneg, 0)
		case 1:
			opos, oneg = append(opos, 0), append(oneg, 1)
		case 2:
			opos, oneg = append(opos, 0), append(oneg, 0)
		case 3:
			opos, oneg = append(opos, 1), append(oneg, 1)
		}
	}
	return
}

// AggregSA is metrics._aggreg_sa: the mean over opos and oneg of the mean
// of the two classes' F1 (a class absent from both sides counting 0, and
// a lone label's F1 standing first).
func AggregSA(items []any) (float64, error) {
	var first, second []int64
	for _, it := range items {
		a, b, err := pair(it)
		if err != nil {
			return 0, err
		}
		x, err := pyval.Int(a)
		if err != nil {
			return 0, err
		}
		y, err := pyval.Int(b)
		if err != nil {
			return 0, err
		}
		first, second = append(first, x), append(second, y)
	}
	// predictions, references = zip(*items): the golds, then the
	// predictions; f1_score(references, predictions).
	predOpos, predOneg := saLabels(first)
	refOpos, refOneg := saLabels(second)
	half := func(ref, pred []int64) (float64, error) {
		f, _, err := F1PerLabel(ref, pred)
		if err != nil {
			return 0, err
		}
		c1 := 0.0
		if len(f) > 1 {
			c1 = f[1]
		}
		return (f[0] + c1) / 2, nil
	}
	o, err := half(refOpos, predOpos)
	if err != nil {
		return 0, err
	}
	n, err := half(refOneg, predOneg)
	if err != nil {
		return 0, err
	}
	return (o + n) / 2, nil
}

// concat splits (a, b) items of label lists and concatenates each side.
func concat(items []any) (as, bs []int64, err error) {
	for _, it := range items {
		a, b, err := pair(it)
		if err != nil {
			return nil, nil, err
		}
		x, err := ints(a)
		if err != nil {
			return nil, nil, err
		}
		y, err := ints(b)
		if err != nil {
			return nil, nil, err
		}
		as, bs = append(as, x...), append(bs, y...)
	}
	return as, bs, nil
}

// AggregNER is metrics._aggreg_ner: per-label F1 of the concatenated
// (prediction, gold) label lists, the mean of all but the last label's
// (the last alone when there is one label).
func AggregNER(items []any) (float64, error) {
	pred, ref, err := concat(items)
	if err != nil {
		return 0, err
	}
	f, _, err := F1PerLabel(ref, pred)
	if err != nil {
		return 0, err
	}
	if len(f) > 1 {
		s := 0.0
		for _, x := range f[:len(f)-1] {
			s += x
		}
		return s / float64(len(f)-1), nil
	}
	return f[0], nil
}

// AggregRel is metrics._aggreg_rel: the macro F1 (numpy's mean of the
// per-label F1) of the concatenated label lists.
func AggregRel(items []any) (float64, error) {
	pred, ref, err := concat(items)
	if err != nil {
		return 0, err
	}
	f, _, err := F1PerLabel(ref, pred)
	if err != nil {
		return 0, err
	}
	return metrics.NumpySum(f) / float64(len(f)), nil
}

// AggregLS is metrics._aggreg_ls: the corpus F1 of lexical substitution
// from (precision, has_answer, has_annotation) items.
func AggregLS(items []any) (float64, error) {
	var a, t, p float64
	for i, it := range items {
		l, ok := it.([]any)
		if !ok || len(l) != 3 {
			return 0, fmt.Errorf("value %d is %T, want (prec, has_answ, has_annotation)", i, it)
		}
		var v [3]float64
		for j := range v {
			f, err := metrics.Float(l[j])
			if err != nil {
				return 0, err
			}
			v[j] = f
		}
		p, a, t = p+v[0], a+v[1], t+v[2]
	}
	prec, rec := p, p
	if a != 0 {
		prec = p / a
	}
	if t != 0 {
		rec = p / t
	}
	if prec+rec != 0 {
		return (2 * prec * rec) / (prec + rec), nil
	}
	return 0, nil
}

// The aggregations, registered with the metrics package.
var (
	AggSA  = &metrics.Aggregation{Name: "evalita_aggreg_sa", Fn: AggregSA}
	AggNER = &metrics.Aggregation{Name: "evalita_aggreg_ner", Fn: AggregNER}
	AggRel = &metrics.Aggregation{Name: "evalita_aggreg_rel", Fn: AggregRel}
	AggLS  = &metrics.Aggregation{Name: "evalita_aggreg_ls", Fn: AggregLS}
)
