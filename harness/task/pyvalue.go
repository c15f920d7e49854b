package task

import (
	"fmt"
	"unicode"

	"github.com/lmeval/lmeval/python/pyval"
)

// pyIsDigit is Python's str.isdigit for the ASCII and Unicode decimal digits.
func pyIsDigit(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// number reads a Python number (bool included) as a float64.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// literalEval is ast.literal_eval, as lm-eval applies it to a rendered
// doc_to_target (tuples as []any, ints as int64).
func literalEval(s string) (any, error) {
	v, err := pyval.LiteralEval(s)
	if err != nil {
		return nil, fmt.Errorf("literal_eval %q: %w", abbrev(s), err)
	}
	return v, nil
}

func abbrev(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
