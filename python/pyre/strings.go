package pyre

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Python's str methods, which task patterns and filters are used with. They
// differ from Go's strings package in the details that change scores:
// str.lower/upper use full Unicode case mappings (ß -> SS, final sigma) and
// str.strip removes str.isspace() characters (which include \x1c-\x1f).

// Lower is Python's str.lower().
func Lower(s string) string { return cases.Lower(language.Und).String(s) }

// Upper is Python's str.upper().
func Upper(s string) string { return cases.Upper(language.Und).String(s) }

// IsSpace reports whether r is whitespace for Python's str.isspace().
func IsSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= ' ', r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// Strip is Python's str.strip() with no argument.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// LStrip is Python's str.lstrip() with no argument.
func LStrip(s string) string { return strings.TrimLeftFunc(s, IsSpace) }

// RStrip is Python's str.rstrip() with no argument.
func RStrip(s string) string { return strings.TrimRightFunc(s, IsSpace) }

// IsUpperRune is Python's str.isupper() for one character: the Unicode
// Uppercase property (Lu and Other_Uppercase).
func IsUpperRune(r rune) bool {
	return unicode.Is(unicode.Upper, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// IsLowerRune is Python's str.islower() for one character: the Unicode
// Lowercase property (Ll and Other_Lowercase).
func IsLowerRune(r rune) bool {
	return unicode.Is(unicode.Lower, r) || unicode.Is(unicode.Other_Lowercase, r)
}

// IsUpper is Python's str.isupper(): at least one cased character and no
// lowercase or titlecase one.
func IsUpper(s string) bool { return isCase(s, IsUpperRune, IsLowerRune) }

// IsLower is Python's str.islower(): at least one cased character and no
// uppercase or titlecase one.
func IsLower(s string) bool { return isCase(s, IsLowerRune, IsUpperRune) }

func isCase(s string, want, other func(rune) bool) bool {
	cased := false
	for _, r := range s {
		if other(r) || unicode.Is(unicode.Title, r) {
			return false
		}
		if want(r) {
			cased = true
		}
	}
	return cased
}
