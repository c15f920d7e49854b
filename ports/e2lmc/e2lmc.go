// Package e2lmc ports lm_eval/tasks/e2lmc/mmlu_early_training's
// custom_metrics.py: loglikelihood_diff, the mean over documents of the
// gold choice's log-likelihood minus the mean of the others'.
package e2lmc

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/npmath"
)

// LoglikelihoodDiff is loglikelihood_diff over the likelihood metric's
// (gold, log-likelihoods) items.
var LoglikelihoodDiff = &metrics.Aggregation{Name: "e2lmc.loglikelihood_diff", Fn: func(items []any) (float64, error) {
	diffs := make([]float64, len(items))
	for i, it := range items {
		l, ok := it.(metrics.Likelihood)
		if !ok {
			return 0, fmt.Errorf("loglikelihood_diff: item %d is %T, want (gold, log-likelihoods)", i, it)
		}
		t := l.Gold
		if t < 0 {
			t += len(l.LogLiks)
		}
		if t < 0 || t >= len(l.LogLiks) {
			return 0, fmt.Errorf("loglikelihood_diff: item %d: list index out of range", i)
		}
		var others []float64
		for j, ll := range l.LogLiks {
			if j != l.Gold {
				others = append(others, ll)
			}
		}
		diffs[i] = l.LogLiks[t] - npmath.Mean(others)
	}
	return npmath.Mean(diffs), nil
}}

func init() {
	metrics.RegisterAggregation(LoglikelihoodDiff)
	task.RegisterAggregation(task.Helper{File: "e2lmc/mmlu_early_training/custom_metrics.py", Function: "loglikelihood_diff",
		SHA256: "3683e74f06120383b54bcd07eed1bee99a746d1afced0531c3a0e7b07619539c"}, LoglikelihoodDiff)
}
