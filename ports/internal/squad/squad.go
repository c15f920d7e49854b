// Package squad ports the SQuAD v2 answer comparison that lm-eval's
// helpers import as transformers.data.metrics.squad_metrics
// (compute_exact, compute_f1) or copy (french_bench's exact and f1, with
// French articles): lower-case, drop ASCII punctuation and the articles,
// collapse whitespace; F1 over the remaining tokens.
package squad

import (
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"

	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
)

// Punctuation is Python's string.punctuation.
const Punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// English is squad_metrics' article pattern.
var English = pyre.MustCompile(`\b(a|an|the)\b`)

// Normalizer is normalize_answer with a given article pattern.
type Normalizer struct{ Articles *pyre.Regexp }

// Default is transformers' normalize_answer.
var Default = Normalizer{English}

// Normalize is normalize_answer(s).
func (n Normalizer) Normalize(s string) string {
	s = pyre.Lower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(Punctuation, r) {
			return -1
		}
		return r
	}, s)
	s = pyfn.Sub(n.Articles, " ", s)
	return strings.Join(pyfn.Split(s), " ")
}

// Tokens is get_tokens(s): [] for "", else the normalized words.
func (n Normalizer) Tokens(s string) []string {
	if s == "" {
		return nil
	}
	return pyfn.Split(n.Normalize(s))
}

// Exact is compute_exact(gold, pred): 1 when the normalized answers are
// equal, else 0 (a Python int).
func (n Normalizer) Exact(gold, pred string) int64 {
	if n.Normalize(gold) == n.Normalize(pred) {
		return 1
	}
	return 0
}

// F1 is compute_f1(gold, pred): the token F1, or (as Python ints) 1/0
// when either side has no tokens and 0 when none is shared.
func (n Normalizer) F1(gold, pred string) any {
	g, p := n.Tokens(gold), n.Tokens(pred)
	if len(g) == 0 || len(p) == 0 {
		if len(g) == len(p) {
			return int64(1)
		}
		return int64(0)
	}
	f := metrics.TokenF1(p, g)
	if f == 0 { // no token shared: Python returns the int 0
		return int64(0)
	}
	return f
}

// CommonCount is sum((Counter(a) & Counter(b)).values()).
func CommonCount(a, b []string) int {
	ca := map[string]int{}
	for _, t := range a {
		ca[t]++
	}
	cb := map[string]int{}
	for _, t := range b {
		cb[t]++
	}
	n := 0
	for t, c := range ca {
		n += min(c, cb[t])
	}
	return n
}

// ComputeExact is squad_metrics.compute_exact.
func ComputeExact(gold, pred string) int64 { return Default.Exact(gold, pred) }

// ComputeF1 is squad_metrics.compute_f1.
func ComputeF1(gold, pred string) any { return Default.F1(gold, pred) }

// Results is the helpers' process_results_qa body: {"f1":
// compute_f1(reference, pred), "exact_match": compute_exact(reference,
// pred)} for the first result.
func Results(reference string, results []any) (map[string]any, error) {
	pred, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	return map[string]any{"f1": ComputeF1(reference, pred), "exact_match": ComputeExact(reference, pred)}, nil
}
