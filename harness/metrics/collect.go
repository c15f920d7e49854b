package metrics

import (
	"context"
	"fmt"
	"github.com/lmeval/lmeval/harness/model"
	"sort"
)

// Order is the order in which lm-eval's process_results emits a task's
// metrics for its output type, which fixes the order of the metric keys in
// the results (multiple_choice: acc, f1, mcc, acc_norm, acc_bytes,
// exact_match, brier_score, then acc_mutual_info; other output types: the
// metric_list order). Metrics lm-eval does not compute for the output type
// follow in metric_list order.
func Order(outputType model.OutputType, specs []Spec) []string {
	var fixed []string
	switch outputType {
	case model.OutputMultipleChoice:
		fixed = []string{"acc", "f1", "mcc", "acc_norm", "acc_bytes", "exact_match", "brier_score", "likelihood", "acc_mutual_info"}
	case model.OutputLoglikelihood:
		fixed = []string{"perplexity", "acc"}
	case model.OutputLoglikelihoodRolling:
		fixed = []string{"word_perplexity", "byte_perplexity", "bits_per_byte"}
	}
	want := map[string]bool{}
	for _, s := range specs {
		want[s.Name] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range fixed {
		if want[n] {
			out = append(out, n)
			seen[n] = true
		}
	}
	for _, s := range specs {
		if !seen[s.Name] {
			out = append(out, s.Name)
			seen[s.Name] = true
		}
	}
	return out
}

// Key names one metric under one filter pipeline.
type Key struct{ Metric, Filter string }

// Collector gathers a task's per-document metric values, by filter and
// metric, in the order lm-eval's evaluator records them.
type Collector struct {
	keys []Key
	vals map[Key][]any
}

// NewCollector returns an empty collector.
func NewCollector() *Collector { return &Collector{vals: map[Key][]any{}} }

// Add records one document's values under a filter. order (from Order)
// fixes the order of new keys; values it does not list follow, sorted.
func (c *Collector) Add(filter string, order []string, values map[string]any) {
	listed := map[string]bool{}
	add := func(m string) {
		v, ok := values[m]
		if !ok {
			return
		}
		k := Key{m, filter}
		if _, seen := c.vals[k]; !seen {
			c.keys = append(c.keys, k)
		}
		c.vals[k] = append(c.vals[k], v)
	}
	for _, m := range order {
		listed[m] = true
		add(m)
	}
	var rest []string
	for m := range values {
		if !listed[m] {
			rest = append(rest, m)
		}
	}
	sort.Strings(rest)
	for _, m := range rest {
		add(m)
	}
}

// Keys returns the (metric, filter) pairs in recording order.
func (c *Collector) Keys() []Key { return append([]Key(nil), c.keys...) }

// Values returns the per-document values of one metric under one filter.
func (c *Collector) Values(k Key) []any { return c.vals[k] }

// Result is one aggregated metric of a task.
type Result struct {
	Key
	Value          float64
	Stderr         StderrResult
	N              int // documents
	HigherIsBetter bool
	Aggregation    string
}

// Compute aggregates every collected metric with its spec's aggregation
// (mean for a metric without spec, as lm-eval falls back to) and its
// standard error, in recording order.
func (c *Collector) Compute(ctx context.Context, specs []Spec, b Bootstrap) ([]Result, error) {
	byName := map[string]Spec{}
	for _, s := range specs {
		byName[s.Name] = s
	}
	out := make([]Result, 0, len(c.keys))
	for _, k := range c.keys {
		s, ok := byName[k.Metric]
		if !ok {
			s = Spec{Name: k.Metric, Aggregation: "mean", HigherIsBetter: true}
		}
		items := c.vals[k]
		v, se, err := Compute(ctx, k.Metric, s.Aggregation, items, b)
		if err != nil {
			return nil, fmt.Errorf("filter %s: %w", k.Filter, err)
		}
		out = append(out, Result{Key: k, Value: v, Stderr: se, N: len(items), HigherIsBetter: s.HigherIsBetter, Aggregation: s.Aggregation})
	}
	return out, nil
}
