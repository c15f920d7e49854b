package scrolls

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lmeval/lmeval/harness/metrics"
)

// The SCROLLS metric script (tau/scrolls metrics/scrolls.py, which
// _SCROLLSTask loads with evaluate and computes over every document in
// its aggregation): for f1, compute_f1, the mean over the documents of
// the best SQuAD 1.1 token F1 against any reference, x100; for ROUGE,
// rouge_score's rouge1, rouge2 and rougeL F-measures (no stemmer) x100,
// each the best over the references, averaged over the documents. Every
// number is rounded to 4 decimals (round(value, 4)).
//
// The script first rewrites every text as "\n".join(nltk.sent_tokenize(
// text)), which rougeLsum needs; it changes only the whitespace between
// sentences, which rouge1, rouge2 and rougeL's tokenizer does not see, so
// it is not done here (and rougeLsum, which lm-eval does not report, is
// not computed).

// pyRound is Python's round(x, ndigits) for a float: the nearest
// decimal, ties to even on the exact binary value.
func pyRound(x float64, ndigits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', ndigits, 64), 64)
	if err != nil {
		return x
	}
	return r
}

func pairs(name string, items []any) ([]Pair, error) {
	out := make([]Pair, len(items))
	for i, v := range items {
		p, ok := v.(Pair)
		if !ok {
			return nil, fmt.Errorf("%s: value %d is %T, not a (prediction, references) pair", name, i, v)
		}
		if len(p.Refs) == 0 {
			return nil, fmt.Errorf("%s: document %d has no references (max() of an empty sequence)", name, i)
		}
		out[i] = p
	}
	return out, nil
}

// F1 is the metric's "f1".
func F1(ps []Pair) float64 {
	sum := 0.0
	for _, p := range ps {
		best := math.Inf(-1)
		for _, r := range p.Refs {
			best = math.Max(best, metrics.SQuADF1v1(p.Pred, r))
		}
		sum += best
	}
	return pyRound(100.0*sum/float64(len(ps)), 4)
}

// Rouge is the metric's "rouge/rouge1", "rouge/rouge2" and
// "rouge/rougeL" (and "rouge/geometric_mean", from the unrounded three).
func Rouge(ps []Pair) map[string]float64 {
	var r1, r2, rl float64
	for _, p := range ps {
		pred := metrics.RougeTokenize(p.Pred)
		b1, b2, bl := math.Inf(-1), math.Inf(-1), math.Inf(-1)
		for _, ref := range p.Refs {
			t := metrics.RougeTokenize(ref)
			b1 = math.Max(b1, metrics.RougeN(t, pred, 1).FMeasure*100)
			b2 = math.Max(b2, metrics.RougeN(t, pred, 2).FMeasure*100)
			bl = math.Max(bl, metrics.RougeL(t, pred).FMeasure*100)
		}
		r1 += b1
		r2 += b2
		rl += bl
	}
	n := float64(len(ps))
	r1, r2, rl = r1/n, r2/n, rl/n
	return map[string]float64{
		"rouge/rouge1":         pyRound(r1, 4),
		"rouge/rouge2":         pyRound(r2, 4),
		"rouge/rougeL":         pyRound(rl, 4),
		"rouge/geometric_mean": pyRound(math.Pow(r1*r2*rl, 1.0/3.0), 4),
	}
}

func init() {
	metrics.RegisterAggregation(&metrics.Aggregation{Name: "scrolls:f1", Fn: func(items []any) (float64, error) {
		ps, err := pairs("f1", items)
		if err != nil {
			return 0, err
		}
		return F1(ps), nil
	}})
	for _, key := range []string{"rouge/rouge1", "rouge/rouge2", "rouge/rougeL"} {
		metrics.RegisterAggregation(&metrics.Aggregation{Name: "scrolls:" + key, Fn: func(items []any) (float64, error) {
			ps, err := pairs(key, items)
			if err != nil {
				return 0, err
			}
			return Rouge(ps)[key], nil
		}})
	}
}
