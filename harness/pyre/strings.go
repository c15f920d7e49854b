package pyre

import (
	"strings"

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
