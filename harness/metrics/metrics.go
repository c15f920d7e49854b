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
	"fmt"
	"github.com/lmeval/lmeval/harness/model"
	"sort"
	"strconv"
	"strings"
	"sync"
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

// Spec is one metric as a task uses it: the metric_list entry resolved
// against the registry.
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

// ParseMetricList resolves a task's metric_list (as decoded from YAML) for
// its output type. A nil or empty list gives the output type's defaults.
// An entry's "aggregation" and "higher_is_better" override the registry's.
// An entry with hf_evaluate: true, or whose name lm-eval's registry lacks,
// resolves to Hugging Face evaluate's metric of that name (Spec.Evaluate)
// when lmeval has it. An unregistered metric is accepted only with an
// explicit aggregation (its values come from a custom process_results, or
// from evaluate's metric).
func ParseMetricList(v any, outputType model.OutputType) ([]Spec, error) {
	var list []any
	switch l := v.(type) {
	case nil:
	case []any:
		list = l
	default:
		return nil, fmt.Errorf("metric_list: want a list, got %T", v)
	}
	if len(list) == 0 {
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
	var out []Spec
	for i, e := range list {
		entry, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("metric_list[%d]: want a mapping, got %T", i, e)
		}
		name, ok := entry["metric"].(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("metric_list[%d]: missing metric name", i)
		}
		s := Spec{Name: name, Kwargs: map[string]any{}}
		m, known := Lookup(name)
		s.Registered = known
		if known {
			s.Aggregation, s.HigherIsBetter = m.Aggregation, m.HigherIsBetter
		} else {
			s.HigherIsBetter = true
		}
		s.HFEvaluate = entry["hf_evaluate"] == true
		if s.HFEvaluate || !known {
			if e, ok := LookupEvaluate(name); ok {
				s.Evaluate = &e
				s.Registered = true
			}
		}
		for k, v := range entry {
			switch k {
			case "metric", "hf_evaluate":
			case "aggregation":
				a, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("metric_list[%d] (%s): aggregation must name a registered aggregation, got %T", i, name, v)
				}
				if _, ok := LookupAggregation(a); !ok {
					return nil, fmt.Errorf("metric_list[%d] (%s): unknown aggregation %q (known: %s)", i, name, a, strings.Join(AggregationNames(), ", "))
				}
				s.Aggregation = a
			case "higher_is_better":
				b, ok := v.(bool)
				if !ok {
					return nil, fmt.Errorf("metric_list[%d] (%s): higher_is_better must be true or false, got %v", i, name, v)
				}
				s.HigherIsBetter = b
			default:
				s.Kwargs[k] = v
			}
		}
		if s.Aggregation == "" {
			return nil, fmt.Errorf("metric_list[%d]: unknown metric %q and no aggregation given (known: %s)", i, name, strings.Join(Names(), ", "))
		}
		out = append(out, s)
	}
	return out, nil
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
