// Package metrics computes lm-evaluation-harness's metrics: per-document
// scores (acc, acc_norm, exact_match, ...), the aggregations that turn them
// into a task's number (mean, perplexity, f1, matthews_corrcoef, corpus
// BLEU/chrF/TER, ...), standard errors as lm-eval's stderr_for_metric
// computes them (closed form or bootstrap), and group aggregation with the
// pooled standard error.
//
// The registry maps a metric name to its defaults (higher_is_better and
// aggregation, as lm_eval/api/metrics.py registers them); a task's
// metric_list entries override them and carry keyword arguments.
package metrics

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/model"
)

// Metric is a registered metric: its defaults, and the per-document work
// that makes its values, so a new metric (lm-eval's, a ported helper's or
// one of Hugging Face evaluate's) is one Register call.
type Metric struct {
	Name           string
	HigherIsBetter bool
	Aggregation    string             // default aggregation
	OutputTypes    []model.OutputType // output types it applies to
	// Doc computes one document's value (nil: the metric's values come
	// from the task's process_results only).
	Doc DocFunc
	// Rank orders a multiple-choice document's values as lm-eval's
	// result dict does (lower first; 0 for metrics after the built-ins).
	Rank int
}

// DocFunc computes a metric's value for one document: a float64 or one
// of the item types its aggregation reads (Pair, Brier, Weighted,
// RefPred, ...). A function given in metric_list (`metric: !function
// ...`) may also return a map[string]any of several metrics' values.
type DocFunc func(s Spec, d *DocResult) (any, error)

var (
	regMu   sync.RWMutex
	metrics = map[string]Metric{}
	aggs    = map[string]*Aggregation{}
)

// Register adds a metric to the registry; it panics on a duplicate name or
// an unknown aggregation.
func Register(m Metric) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := metrics[m.Name]; dup {
		panic("metrics: duplicate metric " + m.Name)
	}
	if _, ok := aggs[m.Aggregation]; !ok {
		panic("metrics: metric " + m.Name + " uses unknown aggregation " + m.Aggregation)
	}
	metrics[m.Name] = m
}

// Lookup returns the registered metric. recall_at_K for any K > 0 is
// known without registration.
func Lookup(name string) (Metric, bool) {
	regMu.RLock()
	m, ok := metrics[name]
	regMu.RUnlock()
	if !ok {
		if k, isRecall := recallK(name); isRecall && k > 0 {
			return Metric{Name: name, HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputMultipleChoice},
				Doc: byType(name, map[model.OutputType]DocFunc{model.OutputMultipleChoice: func(_ Spec, d *DocResult) (any, error) {
					return RecallAtK(d.MC.LogLiks, d.MC.Gold, k), nil
				}})}, true
		}
	}
	return m, ok
}

func recallK(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "recall_at_")
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil
}

// Names lists the registered metrics, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(metrics))
	for n := range metrics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DefaultMetrics are the metrics of a task without metric_list, by output
// type (lm-eval's DEFAULT_METRIC_REGISTRY).
var DefaultMetrics = map[model.OutputType][]string{
	model.OutputLoglikelihood:        {"perplexity", "acc"},
	model.OutputLoglikelihoodRolling: {"word_perplexity", "byte_perplexity", "bits_per_byte"},
	model.OutputMultipleChoice:       {"acc", "acc_norm"},
	model.OutputGenerateUntil:        {"exact_match"},
}

// Spec is one metric as a task uses it: a metric_list entry resolved
// against the registry (harness/task parses the YAML into Specs when the
// task loads).
type Spec struct {
	Name           string
	Aggregation    string
	HigherIsBetter bool
	// Kwargs are the entry's other keys (ignore_case, regexes_to_ignore,
	// ...), passed to the per-document function.
	Kwargs map[string]any
	// Registered is false for a metric the registry does not know; its
	// per-document values must come from the task's own process_results.
	Registered bool
	// Doc, when set, is the entry's own per-document function (a
	// `metric: !function ...` port); otherwise the registered metric's.
	Doc DocFunc
	// Func, when set, is called for a generate_until document as lm-eval
	// calls a metric function (Func): a `metric: !function ...` port of
	// that signature, or Hugging Face evaluate's metric (Evaluate).
	Func Func
	// Function is the `!function` the entry's metric names (utils.pass_at_1,
	// whose results are named pass_at_1), "" for a metric named by string.
	Function string
	// HFEvaluate is the entry's hf_evaluate: true.
	HFEvaluate bool
	// Evaluate, when set, is the Hugging Face evaluate metric lm-eval
	// loads for the entry (hf_evaluate: true, or a name its own registry
	// lacks): a generate_until document's value is its compute on
	// references=[gold], predictions=[answer]. Other output types score
	// by name as lm-eval's process_results does (f1 is a (gold, pred)
	// pair for multiple_choice whatever hf_evaluate says).
	Evaluate *EvaluateMetric
}

// Func is a metric function as lm-eval calls one from process_results:
// fn(references=[gold], predictions=[result], **kwargs), for a
// generate_until document, where result is the document's filtered answer
// (a list of programs after a build_predictions filter) and kwargs the
// metric_list entry's other keys (k: [1]). It returns a number, or Values
// when the Python function returns a dict, whose keys then become the
// metrics.
type Func func(ctx context.Context, references, predictions []any, kwargs map[string]any) (any, error)

// Defaults are the metrics of a task without metric_list, for its output
// type (lm-eval's DEFAULT_METRIC_REGISTRY).
func Defaults(outputType model.OutputType) ([]Spec, error) {
	names, ok := DefaultMetrics[outputType]
	if !ok {
		return nil, fmt.Errorf("metric_list: unknown output_type %q", outputType)
	}
	out := make([]Spec, len(names))
	for i, n := range names {
		m, _ := Lookup(n)
		out[i] = Spec{Name: n, Aggregation: m.Aggregation, HigherIsBetter: m.HigherIsBetter, Kwargs: map[string]any{}, Registered: true}
	}
	return out, nil
}

// NewSpec resolves a metric_list entry's metric name against the
// registry: the registered metric's aggregation and higher_is_better
// (true for an unknown one, which has no aggregation until
// WithAggregation gives it one), and, with hfEvaluate or for a name
// lm-eval's registry lacks, Hugging Face evaluate's metric of that name
// when lmeval has it.
func NewSpec(name string, hfEvaluate bool) Spec {
	s := Spec{Name: name, Kwargs: map[string]any{}, HFEvaluate: hfEvaluate}
	m, known := Lookup(name)
	s.Registered = known
	if known {
		s.Aggregation, s.HigherIsBetter = m.Aggregation, m.HigherIsBetter
	} else {
		s.HigherIsBetter = true
	}
	if hfEvaluate || !known {
		if e, ok := LookupEvaluate(name); ok {
			s.Evaluate = &e
			s.Registered = true
		}
	}
	return s
}

// WithAggregation is s aggregated by the registered aggregation name.
func (s Spec) WithAggregation(name string) (Spec, error) {
	if _, ok := LookupAggregation(name); !ok {
		return s, fmt.Errorf("unknown aggregation %q (known: %s)", name, strings.Join(AggregationNames(), ", "))
	}
	s.Aggregation = name
	return s, nil
}

func init() {
	for _, a := range builtinAggregations() {
		RegisterAggregation(a)
	}
	mc := func(f DocFunc) map[model.OutputType]DocFunc {
		return map[model.OutputType]DocFunc{model.OutputMultipleChoice: f}
	}
	gen := func(f DocFunc) map[model.OutputType]DocFunc {
		return map[model.OutputType]DocFunc{model.OutputGenerateUntil: f}
	}
	for _, m := range []Metric{
		{Name: "acc", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputLoglikelihood, model.OutputMultipleChoice}, Rank: 1,
			Doc: byType("acc", map[model.OutputType]DocFunc{model.OutputMultipleChoice: mcAcc, model.OutputLoglikelihood: llAcc, model.OutputGenerateUntil: genPassthrough})},
		{Name: "acc_norm", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputLoglikelihood, model.OutputMultipleChoice}, Rank: 4,
			Doc: byType("acc_norm", mc(mcAccNorm))},
		{Name: "acc_bytes", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 5,
			Doc: byType("acc_bytes", mc(mcAccBytes))},
		{Name: "acc_mutual_info", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 9,
			Doc: byType("acc_mutual_info", mc(mcMutualInfo))},
		{Name: "acc_all", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputLoglikelihood}},
		{Name: "brier_score", Aggregation: "brier_score", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 7,
			Doc: byType("brier_score", mc(mcBrier))},
		// (gold, the choices' log-likelihoods), for a task's own
		// aggregation (lm-eval registers it with mean, which such items
		// cannot have).
		{Name: "likelihood", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 8,
			Doc: byType("likelihood", mc(mcLikelihood))},
		{Name: "exact_match", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputGenerateUntil, model.OutputMultipleChoice}, Rank: 6,
			Doc: byType("exact_match", map[model.OutputType]DocFunc{model.OutputMultipleChoice: exactMatch, model.OutputGenerateUntil: exactMatch})},
		{Name: "perplexity", Aggregation: "perplexity", OutputTypes: []model.OutputType{model.OutputLoglikelihood},
			Doc: byType("perplexity", map[model.OutputType]DocFunc{model.OutputLoglikelihood: llPerplexity})},
		{Name: "word_perplexity", Aggregation: "weighted_perplexity", OutputTypes: []model.OutputType{model.OutputLoglikelihoodRolling},
			Doc: byType("word_perplexity", map[model.OutputType]DocFunc{model.OutputLoglikelihoodRolling: rollingWords})},
		{Name: "byte_perplexity", Aggregation: "weighted_perplexity", OutputTypes: []model.OutputType{model.OutputLoglikelihoodRolling},
			Doc: byType("byte_perplexity", map[model.OutputType]DocFunc{model.OutputLoglikelihoodRolling: rollingBytes})},
		{Name: "bits_per_byte", Aggregation: "bits_per_byte", OutputTypes: []model.OutputType{model.OutputLoglikelihoodRolling},
			Doc: byType("bits_per_byte", map[model.OutputType]DocFunc{model.OutputLoglikelihoodRolling: rollingBytes})},
		{Name: "mcc", HigherIsBetter: true, Aggregation: "matthews_corrcoef", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 3,
			Doc: byType("mcc", mc(mcPair))},
		{Name: "f1", HigherIsBetter: true, Aggregation: "f1", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Rank: 2,
			Doc: byType("f1", map[model.OutputType]DocFunc{model.OutputMultipleChoice: mcPair, model.OutputGenerateUntil: genPassthrough})},
		{Name: "bleu", HigherIsBetter: true, Aggregation: "bleu", OutputTypes: []model.OutputType{model.OutputGenerateUntil}, Doc: byType("bleu", gen(genRefPred))},
		{Name: "chrf", HigherIsBetter: true, Aggregation: "chrf", OutputTypes: []model.OutputType{model.OutputGenerateUntil}, Doc: byType("chrf", gen(genRefPred))},
		// lm-eval registers ter with higher_is_better=True although TER is
		// an error rate; kept for identical results files.
		{Name: "ter", HigherIsBetter: true, Aggregation: "ter", OutputTypes: []model.OutputType{model.OutputGenerateUntil}, Doc: byType("ter", gen(genRefPred))},
		{Name: "bypass", HigherIsBetter: true, Aggregation: "bypass", OutputTypes: []model.OutputType{model.OutputLoglikelihood, model.OutputMultipleChoice, model.OutputGenerateUntil}, Doc: bypass},
		// Beyond lm-eval: lighteval / HELM metrics.
		{Name: "mrr", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputMultipleChoice}, Doc: byType("mrr", mc(mcMRR))},
		{Name: "prefix_exact_match", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputGenerateUntil},
			Doc: byType("prefix_exact_match", gen(pairwise(fixed(PrefixExactMatch))))},
		{Name: "quasi_exact_match", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputGenerateUntil},
			Doc: byType("quasi_exact_match", gen(pairwise(fixed(QuasiExactMatch))))},
		{Name: "word_f1", HigherIsBetter: true, Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputGenerateUntil},
			Doc: byType("word_f1", gen(pairwise(fixed(WordF1))))},
	} {
		Register(m)
	}
}
