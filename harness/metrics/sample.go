package metrics

import (
	"fmt"
	"github.com/lmeval/lmeval/harness/model"
	"math"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// This file computes per-document metric values as lm-eval's
// ConfigurableTask.process_results does for each output type.

// GoldIndices normalizes doc_to_target's value for a multiple-choice
// document: an index, a list of indices, or the text of a choice. Indices
// at or past the number of choices, and text that is no choice, become
// -100 as in lm-eval. multiple reports a list (multiple_target).
func GoldIndices(gold any, choices []string) (golds []int, multiple bool, err error) {
	idx := func(v any) (int, error) {
		switch g := v.(type) {
		case int:
			return g, nil
		case int64:
			return int(g), nil
		case float64:
			if g == math.Trunc(g) {
				return int(g), nil
			}
		case string:
			for i, c := range choices {
				if c == g {
					return i, nil
				}
			}
			return -100, nil
		}
		return 0, fmt.Errorf("gold %v (%T) is not a choice index or text", v, v)
	}
	clip := func(i int) int {
		if i >= len(choices) {
			return -100
		}
		return i
	}
	if l, ok := gold.([]any); ok {
		for _, v := range l {
			i, err := idx(v)
			if err != nil {
				return nil, true, err
			}
			golds = append(golds, clip(i))
		}
		return golds, true, nil
	}
	if l, ok := gold.([]int); ok {
		for _, i := range l {
			golds = append(golds, clip(i))
		}
		return golds, true, nil
	}
	i, err := idx(gold)
	if err != nil {
		return nil, false, err
	}
	return []int{clip(i)}, false, nil
}

// MultipleChoiceResult is what a multiple-choice document's requests
// returned, with what process_results needs from the document.
type MultipleChoiceResult struct {
	LogLiks  []float64 // per choice, conditional on the context
	IsGreedy []bool
	Choices  []string
	Gold     []int // from GoldIndices
	Multiple bool  // multiple_target
	// Unconditional log-likelihoods of the choices (acc_mutual_info only).
	Unconditional []float64
}

// Argmax is np.argmax: the first index of the largest value (a NaN, as
// numpy has it, wins at its first occurrence); 0 for no values.
func Argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if math.IsNaN(x) {
			return i
		}
		if x > xs[best] {
			best = i
		}
	}
	return best
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func softmax(xs []float64) []float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	out := make([]float64, len(xs))
	sum := 0.0
	for i, x := range xs {
		out[i] = math.Exp(x - m)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// DocResult is one document's answers as the per-document function of a
// metric (Metric.Doc) sees them; which fields are set depends on the
// output type.
type DocResult struct {
	OutputType model.OutputType
	// multiple_choice
	MC *MultipleChoiceResult
	// loglikelihood (LogLik also for loglikelihood_rolling)
	LogLik   float64
	IsGreedy bool
	// loglikelihood_rolling: the target text
	Text string
	// generate_until: the targets (several when Multiple) and the
	// filtered answer
	Golds    []string
	Multiple bool
	Result   string
	// Answer is the filtered answer itself when it is not a string (a
	// filter's list: Result is then its str()), and Gold the target
	// lm-eval pairs it with, uncast; passthrough metrics read them.
	Answer, Gold any

	preds *mcPreds
}

// mcPreds are a multiple-choice document's predictions, computed once.
type mcPreds struct{ raw, norm, bytes int }

func (d *DocResult) mcPreds() *mcPreds {
	if d.preds == nil {
		r := d.MC
		n := len(r.Choices)
		norm := make([]float64, n)
		byteNorm := make([]float64, n)
		for i, c := range r.Choices {
			norm[i] = r.LogLiks[i] / float64(len([]rune(c)))
			byteNorm[i] = r.LogLiks[i] / float64(len(c))
		}
		d.preds = &mcPreds{Argmax(r.LogLiks), Argmax(norm), Argmax(byteNorm)}
	}
	return d.preds
}

// hit is lm-eval's multiple-choice correctness of prediction p.
func (d *DocResult) hit(p int) float64 {
	r := d.MC
	ok := p == r.Gold[0]
	if r.Multiple {
		ok = contains(r.Gold, p)
	}
	if ok {
		return 1
	}
	return 0
}

// score computes each spec's value with its metric's per-document
// function; metrics without one (their values come from the task's
// process_results) are skipped.
func score(specs []Spec, d *DocResult) (map[string]any, error) {
	out := map[string]any{}
	for _, s := range specs {
		if s.Evaluate != nil && d.OutputType == model.OutputGenerateUntil && s.Doc == nil {
			continue // evaluate's compute: the harness calls it with the answer as the filters left it
		}
		fn := s.Doc
		if fn == nil {
			if !s.Registered {
				continue // the task's own function gives its values
			}
			m, ok := Lookup(s.Name)
			if !ok || m.Doc == nil {
				continue
			}
			fn = m.Doc
		}
		v, err := fn(s, d)
		if err != nil {
			return nil, fmt.Errorf("metric %s: %w", s.Name, err)
		}
		if v == skip {
			continue
		}
		if m, ok := v.(map[string]any); ok && s.Doc != nil {
			// A metric function may return several values (lm-eval
			// merges a returned dict into the document's results).
			for k, e := range m {
				out[k] = e
			}
			continue
		}
		out[s.Name] = v
	}
	return out, nil
}

// ScoreMultipleChoice returns each spec's per-document value.
func ScoreMultipleChoice(specs []Spec, r MultipleChoiceResult) (map[string]any, error) {
	n := len(r.Choices)
	if len(r.LogLiks) != n {
		return nil, fmt.Errorf("%d log-likelihoods for %d choices", len(r.LogLiks), n)
	}
	if len(r.Gold) == 0 {
		return nil, fmt.Errorf("no gold answer")
	}
	return score(specs, &DocResult{OutputType: model.OutputMultipleChoice, MC: &r})
}

func mcAcc(_ Spec, d *DocResult) (any, error)      { return d.hit(d.mcPreds().raw), nil }
func mcAccNorm(_ Spec, d *DocResult) (any, error)  { return d.hit(d.mcPreds().norm), nil }
func mcAccBytes(_ Spec, d *DocResult) (any, error) { return d.hit(d.mcPreds().bytes), nil }

func mcPair(_ Spec, d *DocResult) (any, error) {
	return Pair{Gold: d.MC.Gold[0], Pred: d.mcPreds().raw}, nil
}

func mcLikelihood(_ Spec, d *DocResult) (any, error) {
	return Likelihood{Gold: d.MC.Gold[0], LogLiks: append([]float64(nil), d.MC.LogLiks...)}, nil
}

func mcBrier(_ Spec, d *DocResult) (any, error) {
	return Brier{Gold: d.MC.Gold[0], Probs: softmax(d.MC.LogLiks)}, nil
}

func mcMutualInfo(_ Spec, d *DocResult) (any, error) {
	r := d.MC
	n := len(r.Choices)
	if len(r.Unconditional) != n {
		return nil, fmt.Errorf("acc_mutual_info needs %d unconditional log-likelihoods, got %d", n, len(r.Unconditional))
	}
	mi := make([]float64, n)
	for i := range mi {
		mi[i] = r.LogLiks[i] - r.Unconditional[i]
	}
	if Argmax(mi) == r.Gold[0] && !r.Multiple {
		return 1.0, nil
	}
	return 0.0, nil
}

// mcExactMatch is multiple_choice exact_match: a gold choice was the
// greedy continuation.
func mcExactMatch(d *DocResult) float64 {
	r := d.MC
	greedy := func(i int) bool {
		if i < 0 {
			i += len(r.IsGreedy) // Python's negative indexing
		}
		return i >= 0 && i < len(r.IsGreedy) && r.IsGreedy[i]
	}
	em := 0.0
	for _, g := range r.Gold {
		if g != -100 && greedy(g) {
			em = 1
		}
		if !r.Multiple {
			break
		}
	}
	return em
}

func mcMRR(_ Spec, d *DocResult) (any, error) { return MRR(d.MC.LogLiks, d.MC.Gold), nil }

// RecallAtK is lighteval's Recall@k: 1 when a gold choice is among the k
// most likely (ties: numpy's argsort order reversed, later index first).
func RecallAtK(lls []float64, golds []int, k int) float64 {
	if k == 1 {
		if contains(golds, Argmax(lls)) {
			return 1
		}
		return 0
	}
	order := make([]int, len(lls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lls[order[a]] < lls[order[b]] })
	for i := len(order) - 1; i >= 0 && i >= len(order)-k; i-- {
		if contains(golds, order[i]) {
			return 1
		}
	}
	return 0
}

// MRR is lighteval's mean reciprocal rank term: 1/(rank of the best gold
// choice + 1), a tie ranking as the best of its equals.
func MRR(lls []float64, golds []int) float64 {
	best := len(lls)
	for _, g := range golds {
		if g < 0 || g >= len(lls) {
			continue
		}
		rank := 0
		for _, x := range lls {
			if x > lls[g] {
				rank++
			}
		}
		best = min(best, rank)
	}
	return 1 / float64(best+1)
}

// ScoreLoglikelihood scores a loglikelihood document: perplexity gets the
// log-likelihood, acc whether the continuation was the greedy one.
func ScoreLoglikelihood(specs []Spec, logLik float64, isGreedy bool) map[string]any {
	out, _ := score(specs, &DocResult{OutputType: model.OutputLoglikelihood, LogLik: logLik, IsGreedy: isGreedy})
	return out
}

func llPerplexity(_ Spec, d *DocResult) (any, error) { return d.LogLik, nil }

func llAcc(_ Spec, d *DocResult) (any, error) {
	if d.IsGreedy {
		return 1.0, nil
	}
	return 0.0, nil
}

var wsRun = pyre.MustCompile(`\s+`)

// CountWords is lm-eval's count_words: len(re.split(r"\s+", doc)), which
// counts empty strings at either end.
func CountWords(doc string) int { return len(wsRun.FindAll(doc)) + 1 }

// ScoreRolling scores a loglikelihood_rolling document against its target
// text (word and byte counts weight the perplexities).
func ScoreRolling(specs []Spec, logLik float64, target string) map[string]any {
	out, _ := score(specs, &DocResult{OutputType: model.OutputLoglikelihoodRolling, LogLik: logLik, Text: target})
	return out
}

func rollingWords(_ Spec, d *DocResult) (any, error) {
	return Weighted{d.LogLik, float64(CountWords(d.Text))}, nil
}

func rollingBytes(_ Spec, d *DocResult) (any, error) {
	return Weighted{d.LogLik, float64(len(d.Text))}, nil
}

// ExactMatchOptions are exact_match's keyword arguments (HF evaluate's).
type ExactMatchOptions struct {
	RegexesToIgnore                              []*pyre.Regexp
	IgnoreCase, IgnorePunctuation, IgnoreNumbers bool
}

// ParseExactMatchOptions reads a metric_list entry's kwargs.
func ParseExactMatchOptions(kwargs map[string]any) (ExactMatchOptions, error) {
	var o ExactMatchOptions
	for k, v := range kwargs {
		switch k {
		case "ignore_case", "ignore_punctuation", "ignore_numbers":
			// exact_match_hf_evaluate tests them with `if ...:`, so any
			// value counts by its truth (afriqa's YAML gives a string).
			b, ok := pyTruth(v)
			if !ok {
				return o, fmt.Errorf("exact_match: %s must be true or false, got %v", k, v)
			}
			switch k {
			case "ignore_case":
				o.IgnoreCase = b
			case "ignore_punctuation":
				o.IgnorePunctuation = b
			default:
				o.IgnoreNumbers = b
			}
		case "regexes_to_ignore":
			l, ok := v.([]any)
			if !ok {
				return o, fmt.Errorf("exact_match: regexes_to_ignore must be a list, got %T", v)
			}
			for _, e := range l {
				p, ok := e.(string)
				if !ok {
					return o, fmt.Errorf("exact_match: regexes_to_ignore entries must be text, got %T", e)
				}
				re, err := pyre.Compile(p)
				if err != nil {
					return o, fmt.Errorf("exact_match: regexes_to_ignore: %w", err)
				}
				o.RegexesToIgnore = append(o.RegexesToIgnore, re)
			}
		default:
			return o, fmt.Errorf("exact_match: unknown option %q", k)
		}
	}
	return o, nil
}

const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func dropChars(s, set string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && strings.ContainsRune(set, r) {
			return -1
		}
		return r
	}, s)
}

func (o ExactMatchOptions) normalize(s string) string {
	for _, re := range o.RegexesToIgnore {
		s, _ = re.Sub("", s, 0)
	}
	if o.IgnoreCase {
		s = pyre.Lower(s)
	}
	if o.IgnorePunctuation {
		s = dropChars(s, asciiPunct)
	}
	if o.IgnoreNumbers {
		s = dropChars(s, "0123456789")
	}
	return s
}

// ExactMatch is HF evaluate's exact_match for one pair: 1 when prediction
// and reference are equal after the options' normalisation.
func ExactMatch(pred, ref string, o ExactMatchOptions) float64 {
	if o.normalize(pred) == o.normalize(ref) {
		return 1
	}
	return 0
}

// pyTruth is bool(v) for the values YAML gives.
func pyTruth(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case nil:
		return false, true
	case string:
		return x != "", true
	case int:
		return x != 0, true
	case int64:
		return x != 0, true
	case uint64:
		return x != 0, true
	case float64:
		return x != 0, true
	case []any:
		return len(x) > 0, true
	case map[string]any:
		return len(x) > 0, true
	}
	return false, false
}

// HELM's normalisation (quasi_exact_match, word_f1): lowercase, drop ASCII
// punctuation, drop the articles a/an/the, collapse whitespace.
var articles = pyre.MustCompile(`\b(a|an|the)\b`)

// NormalizeHELM is HELM's normalize_text.
func NormalizeHELM(s string) string {
	s = dropChars(pyre.Lower(s), asciiPunct)
	s, _ = articles.Sub(" ", s, 0)
	return strings.Join(pySplit(s), " ")
}

// QuasiExactMatch is HELM's quasi_exact_match.
func QuasiExactMatch(pred, gold string) float64 {
	if NormalizeHELM(pred) == NormalizeHELM(gold) {
		return 1
	}
	return 0
}

// PrefixExactMatch is HELM's prefix_exact_match: the stripped prediction
// starts with the stripped gold (an empty prediction scores 0).
func PrefixExactMatch(pred, gold string) float64 {
	if pred == "" {
		return 0
	}
	if strings.HasPrefix(pyre.Strip(pred), pyre.Strip(gold)) {
		return 1
	}
	return 0
}

// WordF1 is HELM's f1_score: the F1 of the sets of normalised words
// (nltk's f_measure with alpha 0.5; 0 when either side has no words).
func WordF1(pred, gold string) float64 {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range pySplit(NormalizeHELM(s)) {
			m[w] = true
		}
		return m
	}
	g, p := set(gold), set(pred)
	if len(g) == 0 || len(p) == 0 {
		return 0
	}
	common := 0
	for w := range p {
		if g[w] {
			common++
		}
	}
	if common == 0 {
		return 0
	}
	prec := float64(common) / float64(len(p))
	rec := float64(common) / float64(len(g))
	return 1 / (0.5/prec + 0.5/rec)
}

// ScoreGeneration scores a generate_until document: result is the filtered
// response, golds the target (several when multiple_target).
func ScoreGeneration(specs []Spec, golds []string, multiple bool, result string) (map[string]any, error) {
	if len(golds) == 0 {
		return nil, fmt.Errorf("no target")
	}
	return score(specs, &DocResult{OutputType: model.OutputGenerateUntil, Golds: golds, Multiple: multiple, Result: result})
}

// ScoreGenerationAnswer is ScoreGeneration for an answer that a filter
// left as something other than a string (a list): result is its str(),
// answer the value itself and gold the target uncast (lm-eval casts the
// target to the answer's type only when the answer is not a list).
func ScoreGenerationAnswer(specs []Spec, golds []string, multiple bool, result string, answer, gold any) (map[string]any, error) {
	if len(golds) == 0 {
		return nil, fmt.Errorf("no target")
	}
	return score(specs, &DocResult{OutputType: model.OutputGenerateUntil, Golds: golds, Multiple: multiple, Result: result, Answer: answer, Gold: gold})
}

// genPassthrough is a generate_until document's value for the metrics
// lm-eval defines as passthrough functions of one argument (acc, f1:
// `def acc_fn(items): return items`). process_results calls them with
// references= and predictions=, gets a TypeError and calls them again
// with [gold, result]: the value is that pair, for a custom aggregation
// to read. With several targets each is tried in turn and the document
// scores 1.0 when any call returned something truthy, a non-empty pair
// always: 1.0 unless there are no targets.
func genPassthrough(_ Spec, d *DocResult) (any, error) {
	if d.Multiple {
		if len(d.Golds) > 0 {
			return 1.0, nil
		}
		return 0.0, nil
	}
	if d.Answer != nil {
		return []any{d.Gold, d.Answer}, nil
	}
	return []any{d.Golds[0], d.Result}, nil
}

// pairwise makes a generation metric of a (prediction, gold) score:
// with several targets (multiple_target) the best one counts, so a
// document is right when any target matches.
func pairwise(pair func(s Spec) (func(pred, gold string) float64, error)) DocFunc {
	return func(s Spec, d *DocResult) (any, error) {
		fn, err := pair(s)
		if err != nil {
			return nil, err
		}
		if !d.Multiple {
			return fn(d.Result, d.Golds[0]), nil
		}
		best := 0.0
		for _, g := range d.Golds {
			best = math.Max(best, fn(d.Result, g))
		}
		return best, nil
	}
}

func fixed(fn func(pred, gold string) float64) func(Spec) (func(pred, gold string) float64, error) {
	return func(Spec) (func(pred, gold string) float64, error) { return fn, nil }
}

// exactMatch is exact_match for both output types it applies to.
func exactMatch(s Spec, d *DocResult) (any, error) {
	if d.OutputType == model.OutputMultipleChoice {
		return mcExactMatch(d), nil
	}
	return pairwise(func(s Spec) (func(p, g string) float64, error) {
		o, err := ParseExactMatchOptions(s.Kwargs)
		if err != nil {
			return nil, err
		}
		return func(p, g string) float64 { return ExactMatch(p, g, o) }, nil
	})(s, d)
}

// genRefPred is a corpus metric's item: the references and the answer.
func genRefPred(_ Spec, d *DocResult) (any, error) {
	refs := d.Golds
	if !d.Multiple {
		refs = d.Golds[:1]
	}
	return RefPred{Refs: refs, Pred: d.Result}, nil
}

// skip is a per-document function's "no value for this document".
var skip = &struct{ _ byte }{}

// Skip is a DocFunc that gives no value: the per-document step of a
// metric the evaluator computes itself (a task's `metric: !function`),
// which must not fall back to the built-in metric of the same name.
func Skip(Spec, *DocResult) (any, error) { return skip, nil }

// byType dispatches a metric's per-document work on the output type. A
// metric used with another output type is an error for multiple_choice
// and generate_until documents and gives no value for the others (as
// lm-eval's process_results, whose loglikelihood branches only fill in
// the metrics they know).
func byType(name string, fns map[model.OutputType]DocFunc) DocFunc {
	return func(s Spec, d *DocResult) (any, error) {
		if fn, ok := fns[d.OutputType]; ok {
			return fn(s, d)
		}
		if d.OutputType == model.OutputMultipleChoice || d.OutputType == model.OutputGenerateUntil {
			return nil, fmt.Errorf("metric %s does not apply to %s output", name, d.OutputType)
		}
		return skip, nil
	}
}

// bypass records nothing: a None for generate_until, no value otherwise.
func bypass(_ Spec, d *DocResult) (any, error) {
	if d.OutputType == model.OutputGenerateUntil {
		return nil, nil
	}
	return skip, nil
}
