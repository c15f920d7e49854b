package metrics

import (
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"
	"sync"
)

// This file reproduces the scikit-learn classification metrics that
// lm-eval's aggregations and Hugging Face evaluate's accuracy, f1,
// precision, recall and matthews_correlation call: accuracy_score,
// precision_recall_fscore_support (f1_score, precision_score,
// recall_score) and matthews_corrcoef on integer labels, as scikit-learn
// 1.3 and later compute them (the F-score from the counts,
// 2·tp/(true+pred), and averages as numpy sums them).

// PRFOptions are the keyword arguments of sklearn's precision_score,
// recall_score and f1_score.
type PRFOptions struct {
	// Labels selects and orders the labels scored (nil: every label
	// present in either array, sorted).
	Labels []int
	// PosLabel is the class scored with Average "binary" (sklearn's
	// default is 1).
	PosLabel int
	// Average is "binary", "micro", "macro", "weighted", or "" for
	// sklearn's None (a score per label).
	Average string
	// SampleWeight weighs each sample (nil: all 1).
	SampleWeight []float64
	// ZeroDivision is the value of a 0/0 ratio: 0 for sklearn's "warn"
	// (then Warn is told) and 0, 1 or NaN otherwise.
	ZeroDivision float64
	// Warn receives sklearn's UndefinedMetricWarning texts when
	// ZeroDivision is "warn" (nil: none).
	Warn func(msg string)
	// WarnFor names the ratios that warn: "precision", "recall",
	// "f-score" (precision_score warns only for precision, and so on).
	WarnFor []string
}

// confusion is a multiclass confusion matrix: rows true labels, columns
// predicted ones, over labels (sorted, every label present).
type confusion struct {
	labels []int
	conf   [][]float64
	// tp, pred and tru are each label's weighted counts summed in sample
	// order, as np.bincount sums sample weights (nil without weights: the
	// counts are exact integers, read off conf).
	tp, pred, tru []float64
}

func newConfusion(yTrue, yPred []int, w []float64) (*confusion, error) {
	if len(yTrue) != len(yPred) {
		return nil, fmt.Errorf("Found input variables with inconsistent numbers of samples: [%d, %d]", len(yTrue), len(yPred))
	}
	if w != nil && len(w) != len(yTrue) {
		return nil, fmt.Errorf("Found input variables with inconsistent numbers of samples: [%d, %d, %d]", len(yTrue), len(yPred), len(w))
	}
	if len(yTrue) == 0 {
		return nil, fmt.Errorf("no samples")
	}
	seen := map[int]bool{}
	for i := range yTrue {
		seen[yTrue[i]], seen[yPred[i]] = true, true
	}
	labels := make([]int, 0, len(seen))
	for l := range seen {
		labels = append(labels, l)
	}
	sort.Ints(labels)
	pos := make(map[int]int, len(labels))
	for i, l := range labels {
		pos[l] = i
	}
	k := len(labels)
	flat := make([]float64, k*k)
	c := &confusion{labels: labels, conf: make([][]float64, k)}
	for i := range c.conf {
		c.conf[i] = flat[i*k : (i+1)*k]
	}
	if w != nil {
		c.tp, c.pred, c.tru = make([]float64, k), make([]float64, k), make([]float64, k)
	}
	for i := range yTrue {
		t, p := pos[yTrue[i]], pos[yPred[i]]
		x := 1.0
		if w != nil {
			x = w[i]
			if t == p {
				c.tp[t] += x
			}
			c.pred[p] += x
			c.tru[t] += x
		}
		c.conf[t][p] += x
	}
	return c, nil
}

// multiclass is sklearn's type_of_target: more than two labels.
func (c *confusion) multiclass() bool { return len(c.labels) > 2 }

func (c *confusion) index(l int) int {
	i := sort.SearchInts(c.labels, l)
	if i < len(c.labels) && c.labels[i] == l {
		return i
	}
	return -1
}

// counts are one label's true positives, predictions and true samples.
func (c *confusion) counts(l int) (tp, pred, true_ float64) {
	i := c.index(l)
	if i < 0 {
		return 0, 0, 0
	}
	if c.tp != nil {
		return c.tp[i], c.pred[i], c.tru[i]
	}
	for j := range c.labels {
		pred += c.conf[j][i]
		true_ += c.conf[i][j]
	}
	return c.conf[i][i], pred, true_
}

// PrecisionRecallFScore is sklearn's precision_recall_fscore_support with
// beta=1: with an Average, one value each in p, r and f; with Average ""
// one per label.
func PrecisionRecallFScore(yTrue, yPred []int, o PRFOptions) (p, r, f []float64, err error) {
	c, err := newConfusion(yTrue, yPred, o.SampleWeight)
	if err != nil {
		return nil, nil, nil, err
	}
	return c.prf(o)
}

func (c *confusion) prf(o PRFOptions) (p, r, f []float64, err error) {
	labels := o.Labels
	switch o.Average {
	case "binary":
		if c.multiclass() {
			return nil, nil, nil, fmt.Errorf("Target is multiclass but average='binary'. Please choose another average setting, one of [None, 'micro', 'macro', 'weighted'].")
		}
		if c.index(o.PosLabel) < 0 && len(c.labels) >= 2 {
			return nil, nil, nil, fmt.Errorf("pos_label=%d is not a valid label. It should be one of %s", o.PosLabel, intList(c.labels))
		}
		labels = []int{o.PosLabel}
	case "", "micro", "macro", "weighted":
		if o.PosLabel != 1 {
			warnOnce(fmt.Sprintf("Note that pos_label (set to %d) is ignored when average != 'binary' (got %s). You may use labels=[pos_label] to specify a single positive class.", o.PosLabel, averageRepr(o.Average)))
		}
	case "samples":
		return nil, nil, nil, fmt.Errorf("Samplewise metrics are not available outside of multilabel classification.")
	default:
		return nil, nil, nil, fmt.Errorf("average has to be one of (None, 'micro', 'macro', 'weighted', 'samples')")
	}
	if labels == nil {
		labels = c.labels
	}
	n := len(labels)
	tp, pred, tru := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, l := range labels {
		tp[i], pred[i], tru[i] = c.counts(l)
	}
	if o.Average == "micro" {
		tp, pred, tru = []float64{npSum(tp)}, []float64{npSum(pred)}, []float64{npSum(tru)}
	}
	warns := func(metric string) bool {
		for _, m := range o.WarnFor {
			if m == metric {
				return o.Warn != nil
			}
		}
		return false
	}
	divide := func(num, den []float64, metric, modifier string) []float64 {
		out := make([]float64, len(num))
		ill := false
		for i := range num {
			if den[i] == 0 {
				out[i], ill = o.ZeroDivision, true
				continue
			}
			out[i] = num[i] / den[i]
		}
		if ill && warns(metric) {
			o.Warn(prfWarning(o.Average, modifier, strings.ToUpper(metric[:1])+metric[1:]+" is", len(out)))
		}
		return out
	}
	p = divide(tp, pred, "precision", "predicted")
	r = divide(tp, tru, "recall", "true")
	twice, both := make([]float64, len(tp)), make([]float64, len(tp))
	for i := range tp {
		twice[i], both[i] = 2*tp[i], tru[i]+pred[i]
	}
	f = divide(twice, both, "f-score", "true nor predicted")
	if o.Average == "" {
		return p, r, f, nil
	}
	var weights []float64
	if o.Average == "weighted" {
		weights = tru
	}
	return []float64{nanAverage(p, weights)}, []float64{nanAverage(r, weights)}, []float64{nanAverage(f, weights)}, nil
}

// nanAverage is sklearn's _nanaverage: numpy's average of the values that
// are not NaN (weighted, unless the weights sum to zero), NaN when none.
func nanAverage(a, weights []float64) float64 {
	var xs, ws []float64
	for i, x := range a {
		if math.IsNaN(x) {
			continue
		}
		xs = append(xs, x)
		if weights != nil {
			ws = append(ws, weights[i])
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	if weights != nil {
		if scl := npSum(ws); scl != 0 {
			prod := make([]float64, len(xs))
			for i := range xs {
				prod[i] = xs[i] * ws[i]
			}
			return npSum(prod) / scl
		}
	}
	return npSum(xs) / float64(len(xs))
}

// npSum is numpy's add.reduce over a contiguous float64 array.
func npSum(a []float64) float64 { return NumpySum(a) }

// prfWarning is sklearn's _warn_prf text.
func prfWarning(average, modifier, start string, size int) string {
	at := "due to"
	if size != 1 {
		at = "in labels with"
	}
	return fmt.Sprintf("%s ill-defined and being set to 0.0 %s no %s samples. Use `zero_division` parameter to control this behavior.", start, at, modifier)
}

func averageRepr(a string) string {
	if a == "" {
		return "None"
	}
	return a
}

func intList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

var warned sync.Map

// warnOnce logs a warning the first time its text appears, as Python's
// warnings module shows a warning once per place and message.
func warnOnce(msg string) {
	if _, dup := warned.LoadOrStore(msg, true); !dup {
		slog.Warn(msg)
	}
}

// AccuracyScore is sklearn's accuracy_score: the share of equal labels
// (weighted), or with normalize false their count (weighted sum).
func AccuracyScore(yTrue, yPred []int, normalize bool, w []float64) (float64, error) {
	if len(yTrue) != len(yPred) || (w != nil && len(w) != len(yTrue)) {
		return 0, fmt.Errorf("Found input variables with inconsistent numbers of samples")
	}
	if len(yTrue) == 0 {
		return 0, fmt.Errorf("no samples")
	}
	score := make([]float64, len(yTrue))
	for i := range yTrue {
		if yTrue[i] == yPred[i] {
			score[i] = 1
		}
	}
	switch {
	case w == nil && normalize:
		return npSum(score) / float64(len(score)), nil
	case w == nil:
		return npSum(score), nil
	}
	prod := make([]float64, len(score))
	for i := range score {
		prod[i] = score[i] * w[i]
	}
	if !normalize {
		return npSum(prod), nil // np.dot: exact for these 0/1 products' sums of few terms
	}
	scl := npSum(w)
	if scl == 0 {
		return 0, fmt.Errorf("ZeroDivisionError: Weights sum to zero, can't be normalized")
	}
	return npSum(prod) / scl, nil
}

// MatthewsCorrcoef is sklearn's matthews_corrcoef (multiclass form; 0 when
// undefined).
func MatthewsCorrcoef(yTrue, yPred []int, w []float64) (float64, error) {
	c, err := newConfusion(yTrue, yPred, w)
	if err != nil {
		return 0, err
	}
	return mcc(c.labels, c.conf), nil
}
