package task

import (
	"fmt"
	"unicode"

	"lmeval/harness/pyval"
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

// pyEqual is Python's == on JSON-like values (1 == 1.0, lists and dicts
// element-wise).
func pyEqual(a, b any) bool {
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok {
			return fa == fb
		}
		return false
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !pyEqual(v, w) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

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
