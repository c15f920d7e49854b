package pydoc

// Values as the ports of process_results and metric helpers handle them:
// the answers a process_results receives, np.argmax, str.join, `in`,
// nested indexing and str slicing with Python's bounds and errors.

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/pyval"
)

// LogLik is one answer's log-likelihood: the first element of a
// loglikelihood request's (ll, is_greedy), or a loglikelihood_rolling
// request's float.
func LogLik(r any) (float64, error) {
	switch x := r.(type) {
	case model.LoglikelihoodResult:
		return x.LogProb, nil
	case *model.LoglikelihoodResult:
		return x.LogProb, nil
	case model.RollingResult:
		return x.LogProb, nil
	case *model.RollingResult:
		return x.LogProb, nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("TypeError: result is %T, want a log-likelihood", r)
}

// LogLiks is `lls, _ = zip(*results)`: the log-likelihoods of a
// multiple-choice document's answers.
func LogLiks(results []any) ([]float64, error) {
	out := make([]float64, len(results))
	for i, r := range results {
		x, ok := r.(model.LoglikelihoodResult)
		if !ok {
			if p, isPtr := r.(*model.LoglikelihoodResult); isPtr {
				x, ok = *p, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("result %d is %T, want a (log-likelihood, is_greedy) pair", i, r)
		}
		out[i] = x.LogProb
	}
	return out, nil
}

// JoinStrs is sep.join(v): v's items (a str's characters) must be strs.
func JoinStrs(sep string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		rs := []rune(x)
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = string(r)
		}
		return strings.Join(parts, sep), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return "", fmt.Errorf("TypeError: sequence item %d: expected str instance, %s found", i, TypeName(e))
			}
			parts[i] = s
		}
		return strings.Join(parts, sep), nil
	case []string:
		return strings.Join(x, sep), nil
	}
	return "", fmt.Errorf("TypeError: can only join an iterable, not %s", TypeName(v))
}

// Number is a JSON-like number (or bool, Python's int subclass) as a
// float64.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// StrictInt is a JSON-like integer (or bool) as an int; a float is not one
// (Python's str indexing rejects it).
func StrictInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case int32:
		return int(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// In is Python's `x in container` for a JSON-like container: membership
// (==) in a list or among a dict's keys, a substring of a str.
func In(x, container any) (bool, error) {
	switch c := container.(type) {
	case []any:
		for _, e := range c {
			if pyval.Equal(x, e) {
				return true, nil
			}
		}
		return false, nil
	case []string:
		for _, e := range c {
			if pyval.Equal(x, e) {
				return true, nil
			}
		}
		return false, nil
	case map[string]any:
		s, ok := x.(string)
		if !ok {
			return false, nil
		}
		_, in := c[s]
		return in, nil
	case string:
		s, ok := x.(string)
		if !ok {
			return false, fmt.Errorf("TypeError: 'in <string>' requires string as left operand, not %s", TypeName(x))
		}
		return strings.Contains(c, s), nil
	}
	return false, fmt.Errorf("TypeError: argument of type '%s' is not iterable", TypeName(container))
}

// Path is v[keys[0]][keys[1]]...: a string key indexes a dict, an int a
// list (negative from the end), with Python's KeyError, IndexError and
// TypeError.
func Path(v any, keys ...any) (any, error) {
	for _, k := range keys {
		switch key := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("TypeError: %s indices must be integers, not str (%s)", TypeName(v), pyval.Repr(key))
			}
			e, ok := m[key]
			if !ok {
				return nil, fmt.Errorf("KeyError: %s", pyval.Repr(key))
			}
			v = e
		case int:
			switch l := v.(type) {
			case []any:
				i := key
				if i < 0 {
					i += len(l)
				}
				if i < 0 || i >= len(l) {
					return nil, fmt.Errorf("IndexError: list index out of range (%d of %d)", key, len(l))
				}
				v = l[i]
			case string:
				rs := []rune(l)
				i := key
				if i < 0 {
					i += len(rs)
				}
				if i < 0 || i >= len(rs) {
					return nil, fmt.Errorf("IndexError: string index out of range (%d of %d)", key, len(rs))
				}
				v = string(rs[i])
			case map[string]any:
				return nil, fmt.Errorf("KeyError: %d", key)
			default:
				return nil, fmt.Errorf("TypeError: '%s' object is not subscriptable", TypeName(v))
			}
		default:
			return nil, fmt.Errorf("pyhelp.Index: key %v is %T", k, k)
		}
	}
	return v, nil
}

// Slice is s[start:end] of a str (code points), with Python's negative
// and out-of-range bounds; end < 0 with noEnd set means s[start:].
func Slice(s []rune, start, end int, noEnd bool) string {
	n := len(s)
	clamp := func(i int) int {
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		return i
	}
	a := clamp(start)
	b := n
	if !noEnd {
		b = clamp(end)
	}
	if a >= b {
		return ""
	}
	return string(s[a:b])
}
