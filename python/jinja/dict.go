package jinja

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// keyedDict is a dict whose keys are not all strings, as a template's dict
// literal can make ({0: 0, 512: 128}); documents and the values callers
// pass are string-keyed map[string]any. It keeps its keys in insertion
// order, and keys equal in Python (1, 1.0, True) are one key.
type keyedDict struct{ keys, vals []any }

// newKeyedDict builds a dict from a literal's pairs; a later key replaces
// the value of an equal earlier one, keeping its place, as in Python.
func newKeyedDict(keys, vals []any) (*keyedDict, error) {
	d := &keyedDict{}
	for i, k := range keys {
		if err := hashable(k); err != nil {
			return nil, err
		}
		if j := indexOf(d.keys, k); j >= 0 {
			d.vals[j] = vals[i]
			continue
		}
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, vals[i])
	}
	return d, nil
}

func hashable(k any) error {
	switch x := k.(type) {
	case []any, map[string]any, *keyedDict:
		return fmt.Errorf("unhashable type: '%s'", typeName(k))
	case tuple:
		for _, e := range x {
			if err := hashable(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *keyedDict) get(k any) (any, bool) {
	if i := indexOf(d.keys, k); i >= 0 {
		return d.vals[i], true
	}
	return nil, false
}

// PyRepr implements pyval.Reprer.
func (d *keyedDict) PyRepr() string {
	parts := make([]string, len(d.keys))
	for i, k := range d.keys {
		parts[i] = pyval.Repr(k) + ": " + pyval.Repr(d.vals[i])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// method is the dict method name of d.
func (d *keyedDict) method(name string) (callable, bool) {
	switch name {
	case "items":
		return noArgs(name, func() any {
			out := make([]any, len(d.keys))
			for i, k := range d.keys {
				out[i] = tuple{k, d.vals[i]}
			}
			return out
		}), true
	case "keys":
		return noArgs(name, func() any { return append([]any{}, d.keys...) }), true
	case "values":
		return noArgs(name, func() any { return append([]any{}, d.vals...) }), true
	case "get":
		return dictGet(d.get), true
	case "copy":
		return noArgs(name, func() any {
			return &keyedDict{keys: append([]any{}, d.keys...), vals: append([]any{}, d.vals...)}
		}), true
	}
	return nil, false
}

// jsonKey is the key json.dumps writes for k: str keys as they are,
// int, float, bool and None converted, anything else a TypeError.
func jsonKey(k any) (string, error) {
	switch x := k.(type) {
	case string:
		return x, nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case nil:
		return "null", nil
	case int64:
		return fmt.Sprint(x), nil
	case float64:
		return pyval.FloatRepr(x), nil
	}
	return "", fmt.Errorf("keys must be str, int, float, bool or None, not %s", typeName(k))
}

// jsonDict is d as json.dumps sees it: string keys, in order.
func (d *keyedDict) jsonDict() (*orderedDict, error) {
	out := &orderedDict{}
	for i, k := range d.keys {
		s, err := jsonKey(k)
		if err != nil {
			return nil, err
		}
		out.keys = append(out.keys, s)
		out.vals = append(out.vals, d.vals[i])
	}
	return out, nil
}
