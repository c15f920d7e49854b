package benchmarks

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The native helpers replace Python functions, so string handling follows
// Python's str semantics wherever Go's differs.

// pyCapitalize is Python's str.capitalize: the first character in title
// case, every other character lower-cased (a final sigma seeing the first
// character as its context, as in CPython).
func pyCapitalize(s string) string {
	if s == "" {
		return s
	}
	if isASCII(s) {
		return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(pyTitleRune(rs[0]))
	lowerRunes(&b, rs, 1)
	return b.String()
}

// pyTitleRune title-cases one character, with the full (one-to-many)
// mappings Python applies where Go's unicode.ToTitle keeps the rune.
func pyTitleRune(r rune) string {
	switch r {
	case 'ß':
		return "Ss"
	case 'ŉ':
		return "ʼN"
	case 'ﬀ':
		return "Ff"
	case 'ﬁ':
		return "Fi"
	case 'ﬂ':
		return "Fl"
	case 'ﬃ':
		return "Ffi"
	case 'ﬄ':
		return "Ffl"
	case 'ﬅ', 'ﬆ':
		return "St"
	}
	return string(unicode.ToTitle(r))
}

// lowerRunes writes rs[from:] as Python's str.lower writes them: Go's
// per-rune lower-casing plus the two places Python differs, U+0130
// (İ -> i̇) and the final sigma.
func lowerRunes(b *strings.Builder, rs []rune, from int) {
	for i := from; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(rs, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
}

// finalSigma follows CPython's handle_capital_sigma: a cased letter (past
// case-ignorable ones) before, and none after.
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && caseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		r == '\'' || r == '.' || r == ':' || r == '^' || r == '`' || r == '·' || r == '\u2019'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// docString returns doc[key] as a string, as a Python helper indexing a
// document would, with an error naming the field when it is missing or of
// another type.
func docString(doc map[string]any, key string) (string, error) {
	v, ok := doc[key]
	if !ok {
		return "", fmt.Errorf("document has no field %q", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("document field %q is %T, want a string", key, v)
	}
	return s, nil
}

// copyDoc returns a shallow copy of doc with room for extra fields, as
// datasets.Dataset.map keeps every original column next to the new ones.
func copyDoc(doc map[string]any, extra int) map[string]any {
	out := make(map[string]any, len(doc)+extra)
	for k, v := range doc {
		out[k] = v
	}
	return out
}

// pyLower is Python's str.lower.
func pyLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	lowerRunes(&b, []rune(s), 0)
	return b.String()
}
