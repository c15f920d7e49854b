// Package pynum parses numbers from text as Python's int(str) and
// float(str) do: surrounding whitespace (str.isspace), any Unicode decimal
// digits, single underscores between digits, and for float the inf,
// infinity and nan spellings in any case.
package pynum

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"lmeval/harness/pyre"
	"lmeval/harness/pyval"
)

// ascii gives s with surrounding whitespace removed and every Unicode
// decimal digit made its ASCII digit (what CPython does before parsing);
// ok is false when another non-ASCII character remains.
func ascii(s string) (string, bool) {
	s = strings.TrimFunc(s, pyre.IsSpace)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + digitValue(r)))
		default:
			return "", false
		}
	}
	return b.String(), true
}

// digitValue is the value of a Unicode decimal digit: Nd characters come
// in runs of ten, 0 to 9.
func digitValue(r rune) int {
	for _, t := range unicode.Nd.R16 {
		if r >= rune(t.Lo) && r <= rune(t.Hi) {
			return int(r-rune(t.Lo)) % 10
		}
	}
	for _, t := range unicode.Nd.R32 {
		if r >= rune(t.Lo) && r <= rune(t.Hi) {
			return int(r-rune(t.Lo)) % 10
		}
	}
	return 0
}

// digits reports whether s is one or more ASCII digits with single
// underscores between them.
func digits(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if s[i+1] == '_' {
				return false
			}
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Int is int(s) for a string s (base 10); ok is false where Python
// raises ValueError.
func Int(s string) (*big.Int, bool) {
	t, ok := ascii(s)
	if !ok {
		return nil, false
	}
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if !digits(t) {
		return nil, false
	}
	n, ok := new(big.Int).SetString(strings.ReplaceAll(t, "_", ""), 10)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// Int64 is Int for values that fit an int64 (ok is false otherwise too).
func Int64(s string) (int64, bool) {
	n, ok := Int(s)
	if !ok || !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// Float is float(s) for a string s (pyval.Float); ok is false where
// Python raises ValueError.
func Float(s string) (float64, bool) {
	f, err := pyval.Float(s)
	return f, err == nil
}

// IntString is str(int(f)) for a finite float whose value is an integer
// (float.is_integer()): its exact decimal digits.
func IntString(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return i.String()
}

// IsInteger is float.is_integer().
func IsInteger(f float64) bool {
	return !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f)
}
