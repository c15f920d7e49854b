package jinja

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// globals are Jinja2's default global functions (jinja2/defaults.py
// DEFAULT_NAMESPACE), a fresh map for each Env.
func globals() map[string]any {
	return map[string]any{
		"dict":      callable(globalDict),
		"joiner":    callable(globalJoiner),
		"namespace": callable(globalNamespace),
		"range":     callable(globalRange),
	}
}

// globalRange is Python's range, as a list.
func globalRange(args []any, _ map[string]any) (any, error) {
	var start, stop, step int64 = 0, 0, 1
	ints := make([]int64, len(args))
	for i, a := range args {
		n, ok := asInt(a)
		if !ok {
			return nil, fmt.Errorf("'%s' object cannot be interpreted as an integer", typeName(a))
		}
		ints[i] = n
	}
	switch len(ints) {
	case 1:
		stop = ints[0]
	case 2:
		start, stop = ints[0], ints[1]
	case 3:
		start, stop, step = ints[0], ints[1], ints[2]
	default:
		return nil, fmt.Errorf("range expected 1 to 3 arguments, got %d", len(args))
	}
	if step == 0 {
		return nil, errors.New("range() arg 3 must not be zero")
	}
	out := []any{}
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, i)
		if len(out) > 1e7 {
			return nil, errors.New("range too big")
		}
	}
	return out, nil
}

func globalDict(args []any, kwargs map[string]any) (any, error) {
	m := map[string]any{}
	for _, a := range args {
		src, ok := a.(map[string]any)
		if !ok {
			return nil, errors.New("dict() positional argument must be a dict")
		}
		for k, v := range src {
			m[k] = v
		}
	}
	for k, v := range kwargs {
		m[k] = v
	}
	return m, nil
}

func globalNamespace(args []any, kwargs map[string]any) (any, error) {
	ns := &namespace{attrs: map[string]any{}}
	for _, a := range args {
		if src, ok := a.(map[string]any); ok {
			for k, v := range src {
				ns.attrs[k] = v
			}
		}
	}
	for k, v := range kwargs {
		ns.attrs[k] = v
	}
	return ns, nil
}

// sandboxedNamespace is transformers' TemplateNamespace: a namespace that
// refuses attribute names starting with an underscore.
func sandboxedNamespace(args []any, kwargs map[string]any) (any, error) {
	ns, err := globalNamespace(args, kwargs)
	if err != nil {
		return nil, err
	}
	for _, k := range pyval.SortedKeys(ns.(*namespace).attrs) {
		if strings.HasPrefix(k, "_") {
			return nil, underscoreAttr(k)
		}
	}
	return ns, nil
}

// underscoreAttr is TemplateNamespace's SecurityError.
func underscoreAttr(name string) error {
	return templateError{fmt.Errorf("Chat templates cannot store underscore-prefixed attributes on a namespace, but got '%s'. Please rename the attribute.", name)}
}

// globalJoiner is Jinja2's joiner: a callable that returns "" the first
// time and sep after.
func globalJoiner(args []any, _ map[string]any) (any, error) {
	sep := ", "
	if len(args) > 0 {
		sep, _ = args[0].(string)
	}
	used := false
	return callable(func([]any, map[string]any) (any, error) {
		if !used {
			used = true
			return "", nil
		}
		return sep, nil
	}), nil
}
