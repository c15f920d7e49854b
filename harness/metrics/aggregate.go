package metrics

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"sync"

	"github.com/lmeval/lmeval/python/nprand"
)

// Per-document values that aggregations other than mean consume.
type (
	// Pair is (gold, prediction) for f1 and matthews_corrcoef.
	Pair struct{ Gold, Pred int }
	// Weighted is (log-likelihood, weight) for weighted_perplexity and
	// bits_per_byte; the weight is the document's words or bytes.
	Weighted struct{ LogLik, Weight float64 }
	// Brier is (gold, softmax of the choices' log-likelihoods).
	Brier struct {
		Gold  int
		Probs []float64
	}
	// Likelihood is (gold, the choices' log-likelihoods): lm-eval's
	// likelihood metric of a multiple-choice document.
	Likelihood struct {
		Gold    int
		LogLiks []float64
	}
	// RefPred is (references, prediction) for corpus BLEU, chrF and TER.
	RefPred struct {
		Refs []string
		Pred string
	}
	// AccAllItem is one answer of a multi-answer question (MultiRC).
	AccAllItem struct {
		Pred                bool
		Label               int
		Paragraph, Question any
	}
)

// Aggregation turns a task's per-document values into one number.
type Aggregation struct {
	Name string
	Fn   func(items []any) (float64, error)
	// FnNumPy, set instead of Fn, is an aggregation that draws from
	// numpy's global generator (rouge_score's bootstrap aggregator): it
	// gets one in the state the run's np.random.seed leaves it
	// (nprand.FromContext of the context it is applied with).
	FnNumPy func(items []any, np *nprand.RandomState) (float64, error)
	// Bootstrap marks the aggregations lm-eval's stderr_for_metric
	// bootstraps; mean (and acc_all) have closed forms; the rest have none.
	Bootstrap bool
	// Prepare, when set, precomputes what the statistic needs so a resample
	// (given as indices into items) is cheap to score; the bootstrap uses it.
	Prepare func(items []any) (func(idx []int) float64, error)
}

// RegisterAggregation adds an aggregation; it panics on a duplicate name,
// or unless exactly one of Fn and FnNumPy is set.
func RegisterAggregation(a *Aggregation) {
	if (a.Fn == nil) == (a.FnNumPy == nil) {
		panic("metrics: aggregation " + a.Name + " needs exactly one of Fn and FnNumPy")
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := aggs[a.Name]; dup {
		panic("metrics: duplicate aggregation " + a.Name)
	}
	aggs[a.Name] = a
}

// LookupAggregation returns the named aggregation.
func LookupAggregation(name string) (*Aggregation, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	a, ok := aggs[name]
	return a, ok
}

// AggregationNames lists the registered aggregations, sorted.
func AggregationNames() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(aggs))
	for n := range aggs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Apply aggregates items; ctx carries the run's numpy seed, for an
// aggregation that draws from numpy's generator (FnNumPy).
func (a *Aggregation) Apply(ctx context.Context, items []any) (float64, error) {
	if a.FnNumPy != nil {
		return a.FnNumPy(items, nprand.FromContext(ctx))
	}
	return a.Fn(items)
}

// Aggregate applies the named aggregation (Apply).
func Aggregate(ctx context.Context, name string, items []any) (float64, error) {
	a, ok := LookupAggregation(name)
	if !ok {
		return 0, fmt.Errorf("unknown aggregation %q", name)
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("aggregation %s: no values", name)
	}
	return a.Apply(ctx, items)
}

// Float converts a per-document value of a mean-aggregated metric.
func Float(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	// a port's own number types (numpy's bool_ printing as Python's str)
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Bool:
		if rv.Bool() {
			return 1, nil
		}
		return 0, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), nil
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	}
	return 0, fmt.Errorf("want a number, got %T", v)
}

func floats(items []any) ([]float64, error) {
	out := make([]float64, len(items))
	for i, v := range items {
		f, err := Float(v)
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		out[i] = f
	}
	return out, nil
}

// Mean is sum/len, summed left to right as Python's sum.
func Mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func itemsOf[T any](name string, items []any) ([]T, error) {
	out := make([]T, len(items))
	for i, v := range items {
		x, ok := v.(T)
		if !ok {
			var zero T
			return nil, fmt.Errorf("aggregation %s: value %d is %T, want %T", name, i, v, zero)
		}
		out[i] = x
	}
	return out, nil
}

// fromPrepared makes Fn from Prepare: the statistic on the identity sample.
func fromPrepared(prep func([]any) (func([]int) float64, error)) func([]any) (float64, error) {
	return func(items []any) (float64, error) {
		f, err := prep(items)
		if err != nil {
			return 0, err
		}
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		return f(idx), nil
	}
}

func prepareFloats(stat func(xs []float64, idx []int) float64) func([]any) (func([]int) float64, error) {
	return func(items []any) (func([]int) float64, error) {
		xs, err := floats(items)
		if err != nil {
			return nil, err
		}
		return func(idx []int) float64 { return stat(xs, idx) }, nil
	}
}

func meanIdx(xs []float64, idx []int) float64 {
	s := 0.0
	for _, i := range idx {
		s += xs[i]
	}
	return s / float64(len(idx))
}

// prepareMedian is lm-eval's median, sorted(arr)[len(arr)//2] (the upper
// median for an even count). A resample is ranked by counting how often
// it draws each value in sorted order, O(n) instead of a sort.
func prepareMedian(items []any) (func([]int) float64, error) {
	xs, err := floats(items)
	if err != nil {
		return nil, err
	}
	n := len(xs)
	order := make([]int, n) // document indices in value order
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return xs[order[a]] < xs[order[b]] })
	rank := make([]int, n)
	for r, i := range order {
		rank[i] = r
	}
	pool := sync.Pool{New: func() any { return make([]int, n) }}
	return func(idx []int) float64 {
		counts := pool.Get().([]int)
		defer pool.Put(counts)
		clear(counts)
		for _, i := range idx {
			counts[rank[i]]++
		}
		seen, mid := 0, len(idx)/2
		for r, c := range counts {
			if seen += c; seen > mid {
				return xs[order[r]]
			}
		}
		return math.NaN() // unreachable: idx is not empty
	}, nil
}

// nanmeanIdx is lm-eval's nanmean (np.nanmean): the mean of the values
// that are not NaN, NaN when all are.
func nanmeanIdx(xs []float64, idx []int) float64 {
	s, k := 0.0, 0
	for _, i := range idx {
		if !math.IsNaN(xs[i]) {
			s += xs[i]
			k++
		}
	}
	if k == 0 {
		return math.NaN()
	}
	return s / float64(k)
}

func perplexityIdx(xs []float64, idx []int) float64 { return math.Exp(-meanIdx(xs, idx)) }

func prepareWeighted(stat func(ll, w float64) float64) func([]any) (func([]int) float64, error) {
	return func(items []any) (func([]int) float64, error) {
		ws, err := itemsOf[Weighted]("weighted", items)
		if err != nil {
			return nil, err
		}
		return func(idx []int) float64 {
			a, b := 0.0, 0.0
			for _, i := range idx {
				a += ws[i].LogLik
				b += ws[i].Weight
			}
			return stat(a, b)
		}, nil
	}
}

// preparePairs builds the confusion counts of (gold, pred) pairs.
func preparePairs(name string, stat func(labels []int, conf [][]float64) float64) func([]any) (func([]int) float64, error) {
	return func(items []any) (func([]int) float64, error) {
		ps, err := itemsOf[Pair](name, items)
		if err != nil {
			return nil, err
		}
		// sklearn's labels: the sorted union of golds and predictions.
		seen := map[int]bool{}
		for _, p := range ps {
			seen[p.Gold], seen[p.Pred] = true, true
		}
		labels := make([]int, 0, len(seen))
		for l := range seen {
			labels = append(labels, l)
		}
		sort.Ints(labels)
		pos := map[int]int{}
		for i, l := range labels {
			pos[l] = i
		}
		gi := make([]int, len(ps))
		pi := make([]int, len(ps))
		for i, p := range ps {
			gi[i], pi[i] = pos[p.Gold], pos[p.Pred]
		}
		k := len(labels)
		return func(idx []int) float64 {
			flat := make([]float64, k*k)
			conf := make([][]float64, k)
			for i := range conf {
				conf[i] = flat[i*k : (i+1)*k]
			}
			for _, i := range idx {
				conf[gi[i]][pi[i]]++
			}
			return stat(labels, conf)
		}, nil
	}
}

// f1Stat is sklearn.metrics.f1_score(golds, preds, average=average) on a
// confusion matrix over labels (PrecisionRecallFScore): "binary" scores
// label 1, "macro" averages the labels' F1, "weighted" weighs them by
// support, "micro" pools the counts; an undefined F1 is 0, as
// zero_division="warn". Labels a bootstrap resample lacks are left out,
// as sklearn only sees the labels present.
func f1Stat(average string) func(labels []int, conf [][]float64) float64 {
	return func(labels []int, conf [][]float64) float64 {
		c := presentLabels(labels, conf)
		_, _, f, err := c.prf(PRFOptions{PosLabel: 1, Average: average})
		if err != nil || len(f) != 1 {
			return math.NaN() // checked on the whole sample first
		}
		return f[0]
	}
}

// presentLabels keeps the labels that occur as a gold or a prediction.
func presentLabels(labels []int, conf [][]float64) *confusion {
	var keep []int
	for i := range labels {
		n := 0.0
		for j := range labels {
			n += conf[i][j] + conf[j][i]
		}
		if n != 0 {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(labels) {
		return &confusion{labels: labels, conf: conf}
	}
	c := &confusion{labels: make([]int, len(keep)), conf: make([][]float64, len(keep))}
	for a, i := range keep {
		c.labels[a] = labels[i]
		c.conf[a] = make([]float64, len(keep))
		for b, j := range keep {
			c.conf[a][b] = conf[i][j]
		}
	}
	return c
}

// NewF1Aggregation is an aggregation of (gold, pred) Pair items computing
// sklearn's f1_score(golds, preds, average=average) ("macro", "weighted"
// or "micro"), under the given name. It has no standard error (lm-eval
// bootstraps only its own built-in aggregations), so a task-defined
// aggregation function (`aggregation: !function utils.weighted_f1_score`)
// can be one.
func NewF1Aggregation(name, average string) *Aggregation {
	switch average {
	case "macro", "weighted", "micro":
	default:
		panic("metrics: NewF1Aggregation: unknown average " + average)
	}
	prep := preparePairs(name, f1Stat(average))
	return &Aggregation{Name: name, Fn: fromPrepared(prep), Prepare: prep}
}

// mcc is sklearn.metrics.matthews_corrcoef (multiclass form, float sums).
func mcc(_ []int, conf [][]float64) float64 {
	k := len(conf)
	t := make([]float64, k)
	p := make([]float64, k)
	correct, n := 0.0, 0.0
	for i := range k {
		for j := range k {
			t[i] += conf[i][j]
			p[j] += conf[i][j]
		}
		correct += conf[i][i]
	}
	for _, x := range p {
		n += x
	}
	tp, pp, tt := 0.0, 0.0, 0.0
	for i := range k {
		tp += t[i] * p[i]
		pp += p[i] * p[i]
		tt += t[i] * t[i]
	}
	covYtYp := correct*n - tp
	covYpYp := n*n - pp
	covYtYt := n*n - tt
	if covYtYt*covYpYp == 0 {
		return 0
	}
	return covYtYp / math.Sqrt(covYtYt*covYpYp)
}

// checkF1 runs sklearn's checks of f1_score(golds, preds) (binary: at most
// two labels, one of them 1) on the whole sample.
func checkF1(name string, items []any) error {
	ps, err := itemsOf[Pair](name, items)
	if err != nil {
		return err
	}
	golds, preds := make([]int, len(ps)), make([]int, len(ps))
	for i, p := range ps {
		golds[i], preds[i] = p.Gold, p.Pred
	}
	if _, _, _, err := PrecisionRecallFScore(golds, preds, PRFOptions{PosLabel: 1, Average: "binary"}); err != nil {
		return fmt.Errorf("aggregation f1 (sklearn's f1_score): %w", err)
	}
	return nil
}

func brier(items []any) (float64, error) {
	bs, err := itemsOf[Brier]("brier_score", items)
	if err != nil {
		return 0, err
	}
	k := len(bs[0].Probs)
	total := 0.0
	for i, b := range bs {
		if len(b.Probs) != k {
			return 0, fmt.Errorf("aggregation brier_score: document %d has %d choices, document 0 has %d", i, len(b.Probs), k)
		}
		g := b.Gold
		if g < 0 {
			g += k // numpy indexing of np.eye(k)[gold]
		}
		if g < 0 || g >= k {
			return 0, fmt.Errorf("aggregation brier_score: document %d: gold %d out of %d choices", i, b.Gold, k)
		}
		s := 0.0
		for j, p := range b.Probs {
			d := p
			if j == g {
				d = p - 1
			}
			s += d * d
		}
		total += s
	}
	return total / float64(len(bs)), nil
}

// AccAll is lm-eval's acc_all: a question counts as correct only when all
// of its answers (grouped by paragraph and question) are right.
func AccAll(items []AccAllItem) float64 {
	return Mean(accAllGroups(items, true))
}

// AccAllStderr is lm-eval's acc_all_stderr. It groups by question only,
// unlike acc_all; kept as lm-eval has it.
func AccAllStderr(items []AccAllItem) float64 {
	return MeanStderr(accAllGroups(items, false))
}

func accAllGroups(items []AccAllItem, byParagraph bool) []float64 {
	type key struct{ p, q any }
	var order []key
	all := map[key]bool{}
	for _, it := range items {
		k := key{q: fmt.Sprint(it.Question)}
		if byParagraph {
			k.p = fmt.Sprint(it.Paragraph)
		}
		ok := (it.Label == 1) == it.Pred
		if prev, seen := all[k]; seen {
			all[k] = prev && ok
		} else {
			order = append(order, k)
			all[k] = ok
		}
	}
	out := make([]float64, len(order))
	for i, k := range order {
		if all[k] {
			out[i] = 1
		}
	}
	return out
}

func builtinAggregations() []*Aggregation {
	mean := prepareFloats(meanIdx)
	median := prepareMedian
	nanmean := prepareFloats(nanmeanIdx)
	ppl := prepareFloats(perplexityIdx)
	wppl := prepareWeighted(func(a, b float64) float64 { return math.Exp(-a / b) })
	bpb := prepareWeighted(func(a, b float64) float64 { return -(a / b) / math.Ln2 })
	f1 := preparePairs("f1", f1Stat("binary"))
	mc := preparePairs("matthews_corrcoef", mcc)
	f1Checked := func(items []any) (func([]int) float64, error) {
		if err := checkF1("f1", items); err != nil {
			return nil, err
		}
		return f1(items)
	}
	return []*Aggregation{
		{Name: "mean", Fn: fromPrepared(mean), Prepare: mean},
		{Name: "nanmean", Fn: fromPrepared(nanmean), Prepare: nanmean, Bootstrap: true},
		{Name: "median", Fn: fromPrepared(median), Prepare: median, Bootstrap: true},
		{Name: "perplexity", Fn: fromPrepared(ppl), Prepare: ppl, Bootstrap: true},
		{Name: "weighted_perplexity", Fn: fromPrepared(wppl), Prepare: wppl},
		{Name: "bits_per_byte", Fn: fromPrepared(bpb), Prepare: bpb},
		{Name: "f1", Fn: fromPrepared(f1Checked), Prepare: f1Checked, Bootstrap: true},
		{Name: "matthews_corrcoef", Fn: fromPrepared(mc), Prepare: mc, Bootstrap: true},
		{Name: "brier_score", Fn: brier},
		{Name: "bleu", Fn: fromPrepared(prepareBLEU), Prepare: prepareBLEU, Bootstrap: true},
		{Name: "chrf", Fn: fromPrepared(prepareCHRF), Prepare: prepareCHRF, Bootstrap: true},
		{Name: "ter", Fn: fromPrepared(prepareTER), Prepare: prepareTER, Bootstrap: true},
		{Name: "acc_all", Fn: func(items []any) (float64, error) {
			xs, err := itemsOf[AccAllItem]("acc_all", items)
			if err != nil {
				return 0, err
			}
			return AccAll(xs), nil
		}},
		// lm-eval's placeholder aggregation for metrics computed elsewhere.
		{Name: "bypass", Fn: func([]any) (float64, error) { return 999, nil }},
	}
}
