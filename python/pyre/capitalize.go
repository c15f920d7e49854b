package pyre

import (
	"strings"
	"unicode"
)

// Capitalize is Python's str.capitalize(): the first character in title
// case (full mappings: ß -> Ss), every other character lower-cased, a
// final sigma seeing the first character as its context, as in CPython.
// (ports/hellaswag uses it for its process_docs.)
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(titleRune(rs[0]))
	for i := 1; i < len(rs); i++ {
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
	return b.String()
}

// titleRune title-cases one character, with the one-to-many mappings
// Python applies where Go's unicode.ToTitle keeps the rune.
func titleRune(r rune) string {
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
