// Package pydoc holds the small pieces of Python semantics that ports of
// lm-eval's document helpers share: a document's field as str() gives it,
// an integer dict key, str.format with named fields, and what the helpers
// do with a datasets.Dataset: map (of a function returning the columns to
// set, or setting them on the row it returns) and filter.
package pydoc

import (
	"fmt"
	"math"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// Field is doc[key], or Python's KeyError.
func Field(doc task.Doc, key string) (any, error) {
	v, ok := doc[key]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(key))
	}
	return v, nil
}

// Str is str(doc[key]).
func Str(doc task.Doc, key string) (string, error) {
	v, err := Field(doc, key)
	if err != nil {
		return "", err
	}
	return pyval.Str(v), nil
}

// IntKey is v as a key of a dict with int keys: an int, a bool (True ==
// 1) or an integral float hash and compare as that int.
func IntKey(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return int(x), true
		}
	}
	return 0, false
}

// Lookup is table[v] for a Python dict with keys 0..len(table)-1, or
// Python's KeyError.
func Lookup(table []string, v any) (string, error) {
	i, ok := IntKey(v)
	if !ok || i < 0 || i >= len(table) {
		return "", fmt.Errorf("KeyError: %s", pyval.Repr(v))
	}
	return table[i], nil
}

// Format is tmpl.format(**vals) for a template whose fields are plain
// {name}s (no conversions, format specs or literal braces): each field
// is replaced by its value; a field missing from vals is Python's
// KeyError.
func Format(tmpl string, vals map[string]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String(), nil
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("ValueError: Single '{' encountered in format string")
		}
		name := tmpl[i+1 : i+j]
		v, ok := vals[name]
		if !ok {
			return "", fmt.Errorf("KeyError: %s", pyval.Repr(name))
		}
		b.WriteString(tmpl[:i])
		b.WriteString(v)
		tmpl = tmpl[i+j+1:]
	}
}

// FromJSON gives a document decoded by encoding/json the dataset
// loader's types: whole numbers become int64 (tests read documents that
// way).
func FromJSON(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return int64(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = FromJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = FromJSON(e)
		}
		return out
	}
	return v
}

// GetStr is doc[key] where the code needs a str (a method call, a +).
func GetStr(doc task.Doc, key string) (string, error) {
	v, err := Field(doc, key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("TypeError: %s is %s, not a str", pyval.Repr(key), pyval.Repr(v))
	}
	return s, nil
}

// Update is Dataset.map(fn) for an fn that sets keys of the row it is
// given and returns it: fn changes a copy of each document.
func Update(docs []task.Doc, fn func(task.Doc) error) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		nd := make(task.Doc, len(d)+3)
		for k, v := range d {
			nd[k] = v
		}
		if err := fn(nd); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out[i] = nd
	}
	return out, nil
}

// FilterEq is Dataset.filter(lambda x: x[column] == value).
func FilterEq(docs []task.Doc, column string, value any) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		v, err := Field(d, column)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if pyval.Equal(v, value) {
			out = append(out, d)
		}
	}
	return out, nil
}
