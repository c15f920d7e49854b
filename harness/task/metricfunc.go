package task

import "context"

// MetricFunc is a metric_list entry's `metric: !function utils.fn` for a
// generate_until task. lm-eval calls such a function as
// fn(references=[gold], predictions=[result], **kwargs), where result is
// the document's filtered answer (a list of programs after a
// build_predictions filter) and kwargs the entry's other keys (k: [1]);
// it returns a number, or a MetricDict when the Python function returns a
// dict, whose keys then become the metrics.
type MetricFunc func(ctx context.Context, references, predictions []any, kwargs map[string]any) (any, error)

// MetricDict is a metric function's dict result, in the dict's order.
type MetricDict []MetricItem

// MetricItem is one key of a MetricDict.
type MetricItem struct {
	Name  string
	Value any
}
