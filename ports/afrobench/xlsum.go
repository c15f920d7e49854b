package afrobench

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
)

// xlsum/prompt_*/utils.py: rougeL passes each (gold, summary) pair
// through and rougeL_agg scores them all with Hugging Face evaluate's
// rouge metric (rouge_score's tokenizer keeps only a-z and 0-9 tokens,
// so summaries in Amharic, Arabic, Telugu or Tigrinya score 0).

// numpySeed is lm-eval's default NumPy seed, which evaluate's rouge
// resamples from (see metrics.EvaluateRouge); a run with another
// --seed NumPy part would resample from that one in lm-eval.
const numpySeed = 1234

// RougeLMetric is rougeL as lm-eval's process_results calls it: with
// references= and predictions= it raises TypeError, so lm-eval calls
// rougeL([gold, result]), which returns the pair.
func RougeLMetric(_ context.Context, references, predictions []any, _ map[string]any) (any, error) {
	if len(references) != 1 || len(predictions) != 1 {
		return nil, fmt.Errorf("rougeL: want one reference and one prediction, got %d and %d", len(references), len(predictions))
	}
	return []any{references[0], predictions[0]}, nil
}

// RougeLAgg is rougeL_agg(items): evaluate's rouge over the pairs, its
// rougeL.
func RougeLAgg(items []any) (float64, error) {
	ps, err := pairs("rougeL_agg", items)
	if err != nil {
		return 0, err
	}
	refs, preds := make([]string, len(ps)), make([]string, len(ps))
	for i, p := range ps {
		r, ok1 := p[0].(string)
		s, ok2 := p[1].(string)
		if !ok1 || !ok2 {
			return 0, fmt.Errorf("rougeL_agg: document %d: evaluate's rouge wants text, got %T and %T", i, p[0], p[1])
		}
		refs[i], preds[i] = r, s
	}
	res, err := metrics.EvaluateRouge(refs, preds, numpySeed)
	if err != nil {
		return 0, fmt.Errorf("rougeL_agg: %w", err)
	}
	return res["rougeL"], nil
}

// RougeLAggregation is RougeLAgg registered with the metrics package.
var RougeLAggregation = &metrics.Aggregation{Name: "rougeL_agg", Fn: RougeLAgg}

var _ metrics.Func = RougeLMetric
