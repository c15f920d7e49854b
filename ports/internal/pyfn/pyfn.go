// Package pyfn holds the small pieces of Python semantics the ports of
// lm-eval's multilingual task helpers share: reading document fields with
// the errors Python would raise, str methods on code points, int(),
// lm_eval.utils.general_detokenize, and Dataset.map / Dataset.filter over
// documents.
package pyfn

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Str is doc[key] used as a str: a KeyError when missing, a TypeError when
// the value is not a string.
func Str(doc task.Doc, key string) (string, error) {
	v, err := pydoc.Field(doc, key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("TypeError: %s is %s, not str", pyval.Repr(key), pydoc.TypeName(v))
	}
	return s, nil
}

// List is doc[key] used as a list.
func List(doc task.Doc, key string) ([]any, error) {
	v, err := pydoc.Field(doc, key)
	if err != nil {
		return nil, err
	}
	l, ok := AsList(v)
	if !ok {
		return nil, fmt.Errorf("TypeError: %s is %s, not list", pyval.Repr(key), pydoc.TypeName(v))
	}
	return l, nil
}

// Map is doc[key] used as a dict.
func Map(doc task.Doc, key string) (map[string]any, error) {
	v, err := pydoc.Field(doc, key)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("TypeError: %s is %s, not dict", pyval.Repr(key), pydoc.TypeName(v))
	}
	return m, nil
}

// AsList is v as a list ([]any, or []string made one).
func AsList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// Strings is a list whose items must all be strings.
func Strings(l []any) ([]string, error) {
	out := make([]string, len(l))
	for i, v := range l {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("TypeError: item %d is %s, not str", i, pydoc.TypeName(v))
		}
		out[i] = s
	}
	return out, nil
}

// StrList is doc[key] as a list of strings.
func StrList(doc task.Doc, key string) ([]string, error) {
	l, err := List(doc, key)
	if err != nil {
		return nil, err
	}
	return Strings(l)
}

// Len is Python's len() of a code-point string.
func Len(s string) int { return len([]rune(s)) }

// Slice is s[i:j] on code points with Python's clamping and negative
// indices; j == nil means to the end.
func Slice(s string, i int, j *int) string {
	r := []rune(s)
	n := len(r)
	clamp := func(x int) int {
		if x < 0 {
			x += n
			if x < 0 {
				x = 0
			}
		}
		if x > n {
			x = n
		}
		return x
	}
	a, b := clamp(i), n
	if j != nil {
		b = clamp(*j)
	}
	if a >= b {
		return ""
	}
	return string(r[a:b])
}

// DropLast is s[:-1].
func DropLast(s string) string {
	m := -1
	return Slice(s, 0, &m)
}

// LowercaseFirstLetter is the helpers' lowercase_first_letter(text):
// text[0].lower() + text[1:], an IndexError on "".
func LowercaseFirstLetter(text string) (string, error) {
	r := []rune(text)
	if len(r) == 0 {
		return "", fmt.Errorf("IndexError: string index out of range")
	}
	return pyre.Lower(string(r[0])) + string(r[1:]), nil
}

// Capitalize is Python's str.capitalize(): the first character title-cased
// (upper-cased for all but the few title-case digraphs) and the rest
// lower-cased.
func Capitalize(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	first := string(r[0])
	var t string
	if tc := unicode.ToTitle(r[0]); tc != unicode.ToUpper(r[0]) {
		t = string(tc)
	} else {
		t = pyre.Upper(first)
	}
	return t + pyre.Lower(string(r[1:]))
}

// EndsWithAny is s.endswith((suffixes...)).
func EndsWithAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// Split is Python's str.split() with no argument: runs of whitespace.
func Split(s string) []string { return strings.FieldsFunc(s, pyre.IsSpace) }

// IsAlpha is Python's str.isalpha() for one character.
func IsAlpha(r rune) bool { return unicode.IsLetter(r) }

// IsAlnum is Python's str.isalnum(): non-empty, every character a letter
// or a number (str.isalpha, isdecimal, isdigit or isnumeric).
func IsAlnum(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return false
		}
	}
	return true
}

// GeneralDetokenize is lm_eval.utils.general_detokenize.
func GeneralDetokenize(s string) string {
	s = strings.ReplaceAll(s, " n't", "n't")
	s = strings.ReplaceAll(s, " )", ")")
	s = strings.ReplaceAll(s, "( ", "(")
	s = strings.ReplaceAll(s, `" `, `"`)
	s = strings.ReplaceAll(s, ` "`, `"`)
	return Sub(detokPunct, `\1`, s)
}

var detokPunct = pyre.MustCompile(` (['.,])`)

// Sub is re.sub(pattern, repl, s) for a pattern and template known to be
// valid.
func Sub(re *pyre.Regexp, repl, s string) string {
	out, err := re.Sub(repl, s, 0)
	if err != nil {
		panic(err)
	}
	return out
}

// MapDocs is Dataset.map(fn) where fn mutates and returns each document:
// fn gets a shallow copy (so the loader's documents stay as they were).
func MapDocs(docs []task.Doc, fn func(i int, d task.Doc) error) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		c := make(task.Doc, len(d)+2)
		for k, v := range d {
			c[k] = v
		}
		if err := fn(i, c); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out[i] = c
	}
	return out, nil
}

// FilterDocs is Dataset.filter(pred).
func FilterDocs(docs []task.Doc, pred func(d task.Doc) (bool, error)) ([]task.Doc, error) {
	var out []task.Doc
	for i, d := range docs {
		ok, err := pred(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if ok {
			out = append(out, d)
		}
	}
	if out == nil {
		out = []task.Doc{}
	}
	return out, nil
}

// NoneOrEmpty is `v in [None, ""]`.
func NoneOrEmpty(v any) bool {
	if v == nil {
		return true
	}
	s, ok := v.(string)
	return ok && s == ""
}

// Result is results[0] of a generate_until document as the string
// lm-eval's process_results receives.
func Result(results []any) (string, error) {
	if len(results) == 0 {
		return "", fmt.Errorf("IndexError: list index out of range (no results)")
	}
	s, ok := results[0].(string)
	if !ok {
		return "", fmt.Errorf("AttributeError: the result is %s, not str", pydoc.TypeName(results[0]))
	}
	return s, nil
}

// Index is l[i] with Python's IndexError (negative i counts from the end).
func Index(l []any, i int) (any, error) {
	if i < 0 {
		i += len(l)
	}
	if i < 0 || i >= len(l) {
		return nil, fmt.Errorf("IndexError: list index out of range")
	}
	return l[i], nil
}

// Path walks a document through dict keys (string) and list indices (int),
// as doc["answers"]["text"][0], with Python's errors.
func Path(v any, steps ...any) (any, error) {
	for _, st := range steps {
		switch k := st.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("TypeError: %s is not subscriptable by %s", pydoc.TypeName(v), pyval.Repr(k))
			}
			x, ok := m[k]
			if !ok {
				return nil, fmt.Errorf("KeyError: %s", pyval.Repr(k))
			}
			v = x
		case int:
			l, ok := AsList(v)
			if !ok {
				return nil, fmt.Errorf("TypeError: %s is not a list", pydoc.TypeName(v))
			}
			x, err := Index(l, k)
			if err != nil {
				return nil, err
			}
			v = x
		}
	}
	return v, nil
}

// PathStr is Path whose end must be a str.
func PathStr(v any, steps ...any) (string, error) {
	x, err := Path(v, steps...)
	if err != nil {
		return "", err
	}
	s, ok := x.(string)
	if !ok {
		return "", fmt.Errorf("TypeError: %s, not str", pydoc.TypeName(x))
	}
	return s, nil
}

// LogLiks is LogLik of each result.
func LogLiks(results []any) ([]float64, error) {
	out := make([]float64, len(results))
	for i, r := range results {
		var err error
		if out[i], err = pydoc.LogLik(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SetEqual is set(a) == set(b).
func SetEqual(a, b []string) bool {
	sa, sb := map[string]bool{}, map[string]bool{}
	for _, x := range a {
		sa[x] = true
	}
	for _, x := range b {
		sb[x] = true
	}
	if len(sa) != len(sb) {
		return false
	}
	for x := range sa {
		if !sb[x] {
			return false
		}
	}
	return true
}
