// Package dsmap is what the ported helpers do with a datasets.Dataset
// and its rows: Dataset.map of a function returning the columns to set
// (or setting them on the row it returns), Dataset.filter, and doc[key]
// with its KeyError.
package dsmap

import (
	"fmt"

	"lmeval/harness/pyval"
	"lmeval/harness/task"
)

// Get is doc[key]: a KeyError when the document has no such column.
func Get(doc task.Doc, key string) (any, error) {
	v, ok := doc[key]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(key))
	}
	return v, nil
}

// GetStr is doc[key] where the code needs a str (a method call, a +).
func GetStr(doc task.Doc, key string) (string, error) {
	v, err := Get(doc, key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("TypeError: %s is %s, not a str", pyval.Repr(key), pyval.Repr(v))
	}
	return s, nil
}

// Map is Dataset.map(fn) for an fn that returns a dict: each document
// keeps its columns and gets (or has replaced) those fn returns.
func Map(docs []task.Doc, fn func(task.Doc) (task.Doc, error)) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		add, err := fn(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		nd := make(task.Doc, len(d)+len(add))
		for k, v := range d {
			nd[k] = v
		}
		for k, v := range add {
			nd[k] = v
		}
		out[i] = nd
	}
	return out, nil
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

// Filter is Dataset.filter(lambda x: x[column] == value).
func Filter(docs []task.Doc, column string, value any) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		v, err := Get(d, column)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if pyval.Equal(v, value) {
			out = append(out, d)
		}
	}
	return out, nil
}
