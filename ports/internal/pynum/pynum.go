// Package pynum parses numbers as Python's int(str) and float(str) do:
// surrounding whitespace (str.strip's set), a sign, any Unicode decimal
// digits, single underscores between digits, and for float the
// exponent, inf, infinity and nan spellings.
package pynum

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/python/pyre"
)

// digitValue is the value of a Unicode decimal digit (category Nd), -1
// for other characters.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	for _, t := range unicode.Nd.R16 {
		if r <= 0xFFFF && uint16(r) >= t.Lo && uint16(r) <= t.Hi {
			return int(uint16(r)-t.Lo) % 10
		}
	}
	for _, t := range unicode.Nd.R32 {
		if uint32(r) >= t.Lo && uint32(r) <= t.Hi {
			return int(uint32(r)-t.Lo) % 10
		}
	}
	return -1
}

// digits turns a digitpart (digits with single underscores between them)
// into ASCII digits; ok is false for anything else or an empty part.
func digits(s []rune) (string, bool) {
	if len(s) == 0 {
		return "", false
	}
	var b strings.Builder
	prevUnderscore := true
	for _, r := range s {
		if r == '_' {
			if prevUnderscore {
				return "", false
			}
			prevUnderscore = true
			continue
		}
		v := digitValue(r)
		if v < 0 {
			return "", false
		}
		b.WriteByte(byte('0' + v))
		prevUnderscore = false
	}
	if prevUnderscore {
		return "", false
	}
	return b.String(), true
}

func sign(s []rune) (neg bool, rest []rune) {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		return s[0] == '-', s[1:]
	}
	return false, s
}

// Int is int(s): ok is false where Python raises ValueError.
func Int(s string) (*big.Int, bool) {
	neg, r := sign([]rune(pyre.Strip(s)))
	d, ok := digits(r)
	if !ok {
		return nil, false
	}
	v, _ := new(big.Int).SetString(d, 10)
	if neg {
		v.Neg(v)
	}
	return v, true
}

// Float is float(s): ok is false where Python raises ValueError.
func Float(s string) (float64, bool) {
	neg, r := sign([]rune(pyre.Strip(s)))
	low := strings.ToLower(string(r))
	switch low {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	mant, exp := r, []rune(nil)
	for i, c := range r {
		if c == 'e' || c == 'E' {
			mant, exp = r[:i], r[i+1:]
			break
		}
	}
	intPart, frac := mant, []rune(nil)
	hasDot := false
	for i, c := range mant {
		if c == '.' {
			intPart, frac, hasDot = mant[:i], mant[i+1:], true
			break
		}
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	ip, okI := digits(intPart)
	fp, okF := digits(frac)
	switch {
	case !hasDot && okI:
		b.WriteString(ip)
	case hasDot && okI && (okF || len(frac) == 0):
		b.WriteString(ip + "." + fp)
	case hasDot && len(intPart) == 0 && okF:
		b.WriteString("." + fp)
	default:
		return 0, false
	}
	if exp != nil {
		eneg, er := sign(exp)
		ed, ok := digits(er)
		if !ok {
			return 0, false
		}
		b.WriteByte('e')
		if eneg {
			b.WriteByte('-')
		}
		b.WriteString(ed)
	}
	f, err := strconv.ParseFloat(b.String(), 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
			return f, true // Python overflows to inf and underflows to 0 too
		}
		return 0, false
	}
	return f, true
}
