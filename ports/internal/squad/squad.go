// Package squad is the SQuAD answer normalisation and scores that
// lm-eval's helpers take from transformers.data.metrics.squad_metrics
// (normalize_answer, get_tokens, compute_exact, compute_f1) and copy from
// the official SQuAD v1.1 script.
package squad

import (
	"strings"

	"lmeval/harness/pyre"
	"lmeval/ports/internal/pystr"
)

var articles = pyre.MustCompile(`\b(a|an|the)\b`)

// RemovePunc drops the characters of string.punctuation.
func RemovePunc(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && strings.ContainsRune(pystr.Punctuation, r) {
			return -1
		}
		return r
	}, s)
}

// WhiteSpaceFix is " ".join(s.split()).
func WhiteSpaceFix(s string) string { return strings.Join(pystr.Fields(s), " ") }

// RemoveArticles is re.sub(r"\b(a|an|the)\b", " ", s).
func RemoveArticles(s string) string {
	out, _ := articles.Sub(" ", s, 0)
	return out
}

// NormalizeAnswer is normalize_answer: lower-cased, without punctuation
// and English articles, whitespace runs made single spaces.
func NormalizeAnswer(s string) string {
	return WhiteSpaceFix(RemoveArticles(RemovePunc(pyre.Lower(s))))
}

// GetTokens is get_tokens: the normalised answer's words ([] for "").
func GetTokens(s string) []string {
	if s == "" {
		return []string{}
	}
	return pystr.Fields(NormalizeAnswer(s))
}

// ComputeExact is compute_exact (an int, 0 or 1).
func ComputeExact(gold, pred string) int {
	if NormalizeAnswer(gold) == NormalizeAnswer(pred) {
		return 1
	}
	return 0
}

// Common is sum((Counter(a) & Counter(b)).values()).
func Common(a, b []string) int {
	count := map[string]int{}
	for _, t := range a {
		count[t]++
	}
	n := 0
	for _, t := range b {
		if count[t] > 0 {
			count[t]--
			n++
		}
	}
	return n
}

// ComputeF1 is compute_f1: an int (0, or 1 or 0 when either answer has no
// tokens) or a float64, as the Python function returns.
func ComputeF1(gold, pred string) any {
	g, p := GetTokens(gold), GetTokens(pred)
	same := Common(g, p)
	if len(g) == 0 || len(p) == 0 {
		if strings.Join(g, " ") == strings.Join(p, " ") && len(g) == len(p) {
			return 1
		}
		return 0
	}
	if same == 0 {
		return 0
	}
	precision := float64(same) / float64(len(p))
	recall := float64(same) / float64(len(g))
	return 2 * precision * recall / (precision + recall)
}

// Max is Python's max() of numbers (int or float64): the first largest.
func Max(xs []any) any {
	var best any
	bv := 0.0
	for i, x := range xs {
		v := toFloat(x)
		if i == 0 || v > bv {
			best, bv = x, v
		}
	}
	return best
}

func toFloat(x any) float64 {
	switch v := x.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	case bool:
		if v {
			return 1
		}
	}
	return 0
}
