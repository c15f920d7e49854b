package pyval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Int is Python's int(v) for the values documents and filters carry: an
// int stays, a float is truncated toward zero (NaN and infinities are an
// error), a bool is 0 or 1, and text is read as int() reads it (surrounding
// whitespace, a sign, decimal digits of any script, single underscores
// between digits).
func Int(v any) (int64, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case float64:
		if math.IsNaN(x) {
			return 0, fmt.Errorf("ValueError: cannot convert float NaN to integer")
		}
		if math.IsInf(x, 0) {
			return 0, fmt.Errorf("OverflowError: cannot convert float infinity to integer")
		}
		t := math.Trunc(x)
		if t > math.MaxInt64 || t < math.MinInt64 {
			return 0, fmt.Errorf("int(%v): too large", x)
		}
		return int64(t), nil
	case string:
		s := strings.TrimFunc(x, isPySpace)
		digits, neg := s, false
		if digits != "" && (digits[0] == '+' || digits[0] == '-') {
			neg = digits[0] == '-'
			digits = digits[1:]
		}
		clean, ok := pyDigits(digits, false)
		if !ok {
			return 0, fmt.Errorf("ValueError: invalid literal for int() with base 10: %s", Repr(x))
		}
		n, err := strconv.ParseInt(clean, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("int(%s): %w", Repr(x), err)
		}
		if neg {
			n = -n
		}
		return n, nil
	case nil:
		return 0, fmt.Errorf("TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'")
	}
	return 0, fmt.Errorf("TypeError: int() argument must be a string, a bytes-like object or a real number, not %s", typeName(v))
}

// Float is Python's float(v): numbers and bools convert, text is read as
// float() reads it (whitespace, sign, digits with single underscores, an
// exponent, inf/infinity/nan in any case).
func Float(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		s := strings.TrimFunc(x, isPySpace)
		body := strings.TrimLeft(s, "+-")
		if len(s)-len(body) <= 1 {
			switch strings.ToLower(body) {
			case "inf", "infinity", "nan":
				f, _ := strconv.ParseFloat(s, 64)
				return f, nil
			}
			if clean, ok := pyDigits(body, true); ok {
				if f, err := strconv.ParseFloat(s[:len(s)-len(body)]+clean, 64); err == nil || isRange(err) {
					return f, nil
				}
			}
		}
		return 0, fmt.Errorf("ValueError: could not convert string to float: %s", Repr(x))
	case nil:
		return 0, fmt.Errorf("TypeError: float() argument must be a string or a real number, not 'NoneType'")
	}
	return 0, fmt.Errorf("TypeError: float() argument must be a string or a real number, not %s", typeName(v))
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// pyDigits checks Python's numeric literal body (decimal digits of any
// script, single underscores between digits; with float, one '.' and an
// exponent) and returns it in ASCII without underscores.
func pyDigits(s string, float bool) (string, bool) {
	var b strings.Builder
	prevDigit, anyDigit, dot, exp := false, false, false, false
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsDigit(r) && unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + digitValue(r)))
			prevDigit, anyDigit = true, true
		case r == '_':
			if !prevDigit || i+1 >= len(rs) || !unicode.Is(unicode.Nd, rs[i+1]) {
				return "", false
			}
			prevDigit = false
		case float && r == '.' && !dot && !exp:
			dot = true
			prevDigit = false
			b.WriteRune(r)
		case float && (r == 'e' || r == 'E') && anyDigit && !exp:
			exp = true
			prevDigit, anyDigit = false, false
			b.WriteRune(r)
			if i+1 < len(rs) && (rs[i+1] == '+' || rs[i+1] == '-') {
				continue
			}
		case float && (r == '+' || r == '-') && i > 0 && (rs[i-1] == 'e' || rs[i-1] == 'E'):
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), anyDigit
}

// digitValue is the value of a Unicode decimal digit (category Nd): each
// script's digits are runs of 0..9 in consecutive code points.
func digitValue(r rune) int {
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) && r-start < 100 {
		start--
	}
	return int(r-start) % 10
}

// isPySpace is str.strip()'s whitespace.
func isPySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, 0x85:
		return true
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Zs)
}

func typeName(v any) string {
	switch v.(type) {
	case []any:
		return "'list'"
	case map[string]any:
		return "'dict'"
	}
	return fmt.Sprintf("'%T'", v)
}
