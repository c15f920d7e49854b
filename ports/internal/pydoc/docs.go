package pydoc

// Documents as the ports of process_docs and doc_to_* helpers handle
// them: fields with Python's errors (KeyError, TypeError), truthiness,
// int(), list.index, and datasets' Dataset.map/filter (and its map cache).

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// String is doc[key] where the helper needs text (concatenation, a str
// method): a TypeError when the field holds another type.
func String(doc task.Doc, key string) (string, error) {
	v, err := Field(doc, key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("TypeError: field %s is %s, not str", pyval.Repr(key), TypeName(v))
	}
	return s, nil
}

// List is doc[key] where the helper needs a list.
func List(doc task.Doc, key string) ([]any, error) {
	v, err := Field(doc, key)
	if err != nil {
		return nil, err
	}
	return AsList(v, key)
}

// AsList is v as a list ([]any, or []string as some loaders give).
func AsList(v any, what string) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("TypeError: %s is %s, not a list", what, TypeName(v))
}

// Dict is doc[key] where the helper needs a dict.
func Dict(doc task.Doc, key string) (map[string]any, error) {
	v, err := Field(doc, key)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("TypeError: field %s is %s, not a dict", pyval.Repr(key), TypeName(v))
	}
	return m, nil
}

// TypeName is Python's type(v).__name__ for document values.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case string:
		return "str"
	case bool:
		return "bool"
	case int, int32, int64:
		return "int"
	case float32, float64:
		return "float"
	case []any, []string:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// Index is list.index(v): the first element equal to v (Python ==).
func Index(l []any, v any) (int, error) {
	for i, e := range l {
		if pyval.Equal(e, v) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(v))
}

// Copy is a shallow copy of doc (the row Dataset.map hands its function).
func Copy(doc task.Doc) task.Doc {
	out := make(task.Doc, len(doc)+4)
	for k, v := range doc {
		out[k] = v
	}
	return out
}

// Map is Dataset.map(fn) for a function that returns a dict: each
// document keeps its columns (less those fn deleted from the copy it was
// given) and gains or replaces those of the dict fn returns. Register it as
// a task.MapDocs naming the added columns in the order the Python dict
// has them.
func Map(docs []task.Doc, fn func(task.Doc) (task.Doc, error)) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		row := Copy(d)
		res, err := fn(row)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		for k, v := range res {
			row[k] = v
		}
		out[i] = row
	}
	return out, nil
}

// Filter is Dataset.filter(fn).
func Filter(docs []task.Doc, keep func(task.Doc) (bool, error)) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		ok, err := keep(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// Memo caches a process_docs's results by the JSON of its input, as
// datasets' fingerprinted map cache does: lm-eval processes a split
// several times, and a function that draws random numbers gives every
// call after the first the first one's rows. Callers get deep copies.
func Memo(fn task.ProcessDocsFunc) task.ProcessDocsFunc {
	m := MemoModule(func(docs []task.Doc, _ *pyrand.Module) ([]task.Doc, error) { return fn(docs) })
	none := pyrand.NewModule(0)
	return func(docs []task.Doc) ([]task.Doc, error) { return m(docs, none) }
}

// MemoModule is Memo for a process_docs that uses the run's Python
// module-level generator (task.MapDocs.FnModule): it caches per run
// (Module.Epoch), as a new lm-eval process starts with an empty cache.
func MemoModule(fn func(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error)) func(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error) {
	type memoKey struct {
		epoch uint64
		docs  [32]byte
	}
	var (
		mu    sync.Mutex
		cache = map[memoKey][]task.Doc{}
	)
	return func(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error) {
		b, err := json.Marshal(docs)
		if err != nil {
			return nil, err
		}
		key := memoKey{m.Epoch(), sha256.Sum256(b)}
		mu.Lock()
		defer mu.Unlock()
		out, ok := cache[key]
		if !ok {
			if out, err = fn(docs, m); err != nil {
				return nil, err
			}
			cache[key] = out
		}
		cp := make([]task.Doc, len(out))
		for i, d := range out {
			cp[i] = pyval.DeepCopy(d).(map[string]any)
		}
		return cp, nil
	}
}

// Pop is doc.pop(key): the value, removed from doc; a KeyError when
// there is none.
func Pop(doc task.Doc, key string) (any, error) {
	v, ok := doc[key]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(key))
	}
	delete(doc, key)
	return v, nil
}
