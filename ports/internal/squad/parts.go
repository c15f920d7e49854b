package squad

import (
	"strings"

	"github.com/lmeval/lmeval/ports/internal/pystr"
)

// The steps of normalize_answer, for helpers that combine them otherwise
// (super_glue record's normalize_squad), and the names the p-llama3 ports
// use.

// RemovePunc drops the characters of string.punctuation.
func RemovePunc(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && strings.ContainsRune(Punctuation, r) {
			return -1
		}
		return r
	}, s)
}

// WhiteSpaceFix is " ".join(s.split()).
func WhiteSpaceFix(s string) string { return strings.Join(pystr.Fields(s), " ") }

// RemoveArticles is re.sub(r"\b(a|an|the)\b", " ", s).
func RemoveArticles(s string) string {
	out, _ := English.Sub(" ", s, 0)
	return out
}

// NormalizeAnswer is transformers' normalize_answer.
func NormalizeAnswer(s string) string { return Default.Normalize(s) }

// Common is sum((Counter(a) & Counter(b)).values()).
func Common(a, b []string) int { return CommonCount(a, b) }

// Max is Python's max() of numbers (int, int64, float64, bool): the first
// largest, keeping its type.
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
	case int64:
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
