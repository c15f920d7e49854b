// Package f1score ports the f1_score aggregations that many lm-eval task
// directories define in their utils.py or re-export from lm_eval.utils
// (`aggregation: !function utils.weighted_f1_score`): sklearn's
// f1_score over the documents' (gold, prediction) pairs, averaged
// "weighted", "macro" or "micro". They are not one task directory's, so
// they live together here; docs/helpers.md lists every file they serve.
package f1score

import "github.com/lmeval/lmeval/harness/metrics"

// The aggregations, registered with the metrics package under the
// helpers' names.
var (
	Weighted = metrics.NewF1Aggregation("weighted_f1_score", "weighted")
	Macro    = metrics.NewF1Aggregation("macro_f1_score", "macro")
	Micro    = metrics.NewF1Aggregation("micro_f1_score", "micro")
)
