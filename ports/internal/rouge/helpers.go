// Package rouge holds lm-eval helpers' rouge1 / rouge1_agg pair (catalan,
// galician, noticia): the passthrough metric and evaluate's rouge1 over
// the documents' [gold, result] pairs. The ROUGE itself is
// harness/metrics' (rouge_score's tokenizer, ROUGE-N and bootstrap), its
// resamples drawn from numpy's global generator in the state lm-eval's
// np.random.seed leaves it (python/nprand), which is exact for the first
// aggregation of a run that draws from it; a later one in the same
// lm-eval run sees the state the earlier draws left.
package rouge

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/python/nprand"
)

// Passthrough is the helpers' rouge1(items) "metric": lm-eval calls it
// with references= and predictions=, which it does not take, so (the
// TypeError path of api/task.py) with the one list [gold, result], which
// it returns for the aggregation.
var Passthrough = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	if len(refs) == 0 || len(preds) == 0 {
		return nil, fmt.Errorf("rouge1: no reference or prediction")
	}
	return []any{refs[0], preds[0]}, nil
})

// pairs splits [gold, result] items into references and predictions.
func pairs(items []any) (refs, preds []string, err error) {
	for i, it := range items {
		p, ok := it.([]any)
		if !ok || len(p) != 2 {
			return nil, nil, fmt.Errorf("item %d is %T, want [reference, prediction]", i, it)
		}
		r, ok1 := p[0].(string)
		c, ok2 := p[1].(string)
		if !ok1 || !ok2 {
			return nil, nil, fmt.Errorf("item %d: reference and prediction must be strings (AttributeError: lower)", i)
		}
		refs, preds = append(refs, r), append(preds, c)
	}
	return refs, preds, nil
}

// Agg is the helpers' rouge1_agg(items): evaluate's rouge1 over the
// documents' [gold, result] pairs, numpy's global generator as
// np.random.seed left it (see the package comment).
var Agg = &metrics.Aggregation{Name: "rouge1_agg", FnNumPy: func(items []any, np *nprand.RandomState) (float64, error) {
	refs, preds, err := pairs(items)
	if err != nil {
		return 0, fmt.Errorf("rouge1_agg: %w", err)
	}
	if len(refs) == 0 {
		return 0, fmt.Errorf("rouge1_agg: IndexError: no documents")
	}
	return EvaluateRouge1(refs, preds, np), nil
}}

// EvaluateRouge1 is evaluate.load("rouge").compute(predictions=preds,
// references=refs)["rouge1"]: the bootstrap mid F-measure of ROUGE-1,
// rouge1 being the first type the aggregator resamples (0 for no
// documents).
func EvaluateRouge1(refs, preds []string, r *nprand.RandomState) float64 {
	if len(refs) == 0 {
		return 0
	}
	res, err := metrics.EvaluateRougeTypes(refs, preds, []string{"rouge1"}, r)
	if err != nil {
		return 0
	}
	return res["rouge1"]
}

func init() { metrics.RegisterAggregation(Agg) }
