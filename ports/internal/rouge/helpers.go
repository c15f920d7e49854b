package rouge

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/nprand"
)

// Passthrough is the helpers' rouge1(items) "metric": lm-eval calls it
// with references= and predictions=, which it does not take, so (the
// TypeError path of api/task.py) with the one list [gold, result], which
// it returns for the aggregation.
var Passthrough = task.MetricFunc(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
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
var Agg = &metrics.Aggregation{Name: "rouge1_agg", Fn: func(items []any) (float64, error) {
	refs, preds, err := pairs(items)
	if err != nil {
		return 0, fmt.Errorf("rouge1_agg: %w", err)
	}
	if len(refs) == 0 {
		return 0, fmt.Errorf("rouge1_agg: IndexError: no documents")
	}
	return EvaluateRouge1(refs, preds, nprand.Global()), nil
}}

func init() { metrics.RegisterAggregation(Agg) }
