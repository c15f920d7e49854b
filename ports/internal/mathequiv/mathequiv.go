// Package mathequiv ports the steps of the MATH dataset's answer
// extraction and normalisation (Hendrycks et al., math_equivalence.py)
// that lm-eval's helpers copy into their own last_boxed_only_string and
// strip_string / _strip_string (hendrycks_math/utils.py,
// minerva_math/utils.py, agieval/utils.py, ...): each file composes them
// in its own order and catches different exceptions, so the composition
// stays in the port; the steps are here once.
package mathequiv

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/ports/internal/pynum"
)

// ErrRaised stands for the exception a step raises in Python (an
// IndexError, AssertionError or ValueError), which the callers' is_equiv
// catches.
var ErrRaised = errors.New("strip_string raised")

// FixFracs is _fix_fracs: "\frac12" and "\frac1{2}" braced as
// "\frac{1}{2}".
func FixFracs(s string) (string, error) {
	substrs := strings.Split(s, "\\frac")
	newStr := substrs[0]
	for _, sub := range substrs[1:] {
		newStr += "\\frac"
		if sub == "" {
			return "", ErrRaised // substr[0] on "": IndexError
		}
		if sub[0] == '{' {
			newStr += sub
			continue
		}
		r := []rune(sub)
		if len(r) < 2 {
			return s, nil
		}
		a, b, post := string(r[0]), string(r[1]), string(r[2:])
		if b != "{" {
			newStr += "{" + a + "}{" + b + "}" + post
		} else {
			newStr += "{" + a + "}" + b + post
		}
	}
	return newStr, nil
}

// FixASlashB is the body of _fix_a_slash_b: "a/b" of two integers as
// "\frac{a}{b}"; raised is true where int() raises ValueError (one file
// lets it through, the other catches it).
func FixASlashB(s string) (out string, raised bool) {
	parts := strings.Split(s, "/")
	if len(parts) != 2 {
		return s, false
	}
	a, ok1 := pynum.Int(parts[0])
	b, ok2 := pynum.Int(parts[1])
	if !ok1 || !ok2 {
		return s, true
	}
	if s != a.String()+"/"+b.String() {
		return s, false
	}
	return "\\frac{" + a.String() + "}{" + b.String() + "}", false
}

// RemoveRightUnits is _remove_right_units: what precedes "\text{ ", which
// must appear once (an AssertionError otherwise).
func RemoveRightUnits(s string) (string, error) {
	if !strings.Contains(s, "\\text{ ") {
		return s, nil
	}
	splits := strings.Split(s, "\\text{ ")
	if len(splits) != 2 {
		return "", ErrRaised
	}
	return splits[0], nil
}

// FixSqrt is _fix_sqrt: "\sqrt2" braced as "\sqrt{2}".
func FixSqrt(s string) (string, error) {
	if !strings.Contains(s, "\\sqrt") {
		return s, nil
	}
	splits := strings.Split(s, "\\sqrt")
	newStr := splits[0]
	for _, sp := range splits[1:] {
		if sp == "" {
			return "", ErrRaised // split[0] on "": IndexError
		}
		r, n := utf8.DecodeRuneInString(sp)
		if r != '{' {
			newStr += "\\sqrt{" + sp[:n] + "}" + sp[n:]
		} else {
			newStr += "\\sqrt" + sp
		}
	}
	return newStr, nil
}

// LastBoxed is the brace scan of last_boxed_only_string: from the last
// "\boxed" (else the last "\fbox") to the brace closing the first one
// opened after it; ok is false where the Python returns None (neither, or
// the braces never close).
func LastBoxed(s string) (string, bool) {
	idx := strings.LastIndex(s, "\\boxed")
	if idx < 0 {
		idx = strings.LastIndex(s, "\\fbox")
		if idx < 0 {
			return "", false
		}
	}
	open := 0
	for i := idx; i < len(s); i++ {
		switch s[i] {
		case '{':
			open++
		case '}':
			open--
			if open == 0 {
				return s[idx : i+1], true
			}
		}
	}
	return "", false
}
