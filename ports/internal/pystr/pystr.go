// Package pystr has the Python str methods ports need beyond those of
// python/pyre: splitlines, split() on whitespace, strip(chars),
// capitalize.
package pystr

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/lmeval/lmeval/python/pyre"
)

// isLineBreak reports the characters str.splitlines splits on.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// SplitLines is str.splitlines(): \r\n counts as one break, and there is
// no empty last line for a trailing break.
func SplitLines(s string) []string {
	out := []string{}
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isLineBreak(r) {
			i += n
			continue
		}
		out = append(out, s[start:i])
		i += n
		if r == '\r' && i < len(s) && s[i] == '\n' {
			i++
		}
		start = i
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// Fields is str.split() with no argument.
func Fields(s string) []string { return strings.FieldsFunc(s, pyre.IsSpace) }

// StripChars is str.strip(chars): the runes of chars off both ends.
func StripChars(s, chars string) string {
	return strings.Trim(s, chars)
}

// Capitalize is str.capitalize(): the first character title-cased, the
// rest lower-cased (full Unicode mappings).
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	_, n := utf8.DecodeRuneInString(s)
	return cases.Title(language.Und, cases.NoLower).String(s[:n]) + pyre.Lower(s[n:])
}

// Punctuation is Python's string.punctuation.
const Punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
