package jinja

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyval"
)

// Template values are plain Go values with Python's meaning:
//
//	nil            None
//	bool           bool
//	int64          int
//	float64        float
//	string         str
//	[]any          list
//	tuple          tuple
//	map[string]any dict (keys printed and iterated in sorted order)
//	*undefined     jinja2.StrictUndefined
//	callable       functions, bound methods, macros
//	*loopInfo      the `loop` variable of a for loop
//	*namespace     namespace()

type tuple []any

// undefined is jinja2.StrictUndefined: any use other than `is defined`,
// `default` or printing through `is defined` raises an error naming it.
type undefined struct {
	name string // what was looked up, for the error message
	// soft marks the value of an inline if without else, which Jinja2
	// makes a plain (not strict) Undefined: it prints as "", is false,
	// empty and of length 0, and fails only on attribute access,
	// arithmetic and calls.
	soft bool
}

func (u *undefined) err() error {
	return fmt.Errorf("%w: %s", ErrUndefined, u.name)
}

// ErrUndefined is wrapped by every error raised for using an undefined
// variable or a missing attribute or item (StrictUndefined).
var ErrUndefined = errors.New("undefined")

type callable func(args []any, kwargs map[string]any) (any, error)

type namespace struct{ attrs map[string]any }

// norm converts values coming from callers (documents, registered
// functions) into the types above.
func norm(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, float64, string, []any, tuple, map[string]any, *keyedDict, *undefined, callable, *loopInfo, *namespace, *macro:
		return v
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	case float32:
		return float64(x)
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return l
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return m
	case func(args []any, kwargs map[string]any) (any, error):
		// Callers' functions see plain Go values, never template types.
		return callable(func(args []any, kwargs map[string]any) (any, error) {
			plain := make([]any, len(args))
			for i, a := range args {
				if u, ok := a.(*undefined); ok && !u.soft {
					return nil, u.err()
				}
				plain[i] = toGo(a)
			}
			var kw map[string]any
			if kwargs != nil {
				kw = make(map[string]any, len(kwargs))
				for k, a := range kwargs {
					kw[k] = toGo(a)
				}
			}
			v, err := x(plain, kw)
			return norm(v), err
		})
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		l := make([]any, rv.Len())
		for i := range l {
			l[i] = rv.Index(i).Interface()
		}
		return l
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			it := rv.MapRange()
			for it.Next() {
				m[it.Key().String()] = it.Value().Interface()
			}
			return m
		}
	case reflect.Func:
		return wrapGoFunc(rv)
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		return norm(rv.Elem().Interface())
	}
	return v
}

// wrapGoFunc adapts an arbitrary Go function registered with RegisterFunc.
func wrapGoFunc(fn reflect.Value) callable {
	t := fn.Type()
	return func(args []any, kwargs map[string]any) (any, error) {
		if len(kwargs) > 0 {
			return nil, fmt.Errorf("keyword arguments not supported by %s", t)
		}
		n := t.NumIn()
		if (!t.IsVariadic() && len(args) != n) || (t.IsVariadic() && len(args) < n-1) {
			return nil, fmt.Errorf("function takes %d arguments, got %d", n, len(args))
		}
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			var pt reflect.Type
			if t.IsVariadic() && i >= n-1 {
				pt = t.In(n - 1).Elem()
			} else {
				pt = t.In(i)
			}
			a = toGo(a)
			if a == nil {
				in[i] = reflect.Zero(pt)
				continue
			}
			av := reflect.ValueOf(a)
			if !av.Type().AssignableTo(pt) {
				if !av.Type().ConvertibleTo(pt) {
					return nil, fmt.Errorf("argument %d: cannot use %s as %s", i+1, av.Type(), pt)
				}
				av = av.Convert(pt)
			}
			in[i] = av
		}
		out := fn.Call(in)
		if len(out) == 0 {
			return nil, nil
		}
		if last := out[len(out)-1]; last.Type().Implements(reflect.TypeFor[error]()) {
			if !last.IsNil() {
				return nil, last.Interface().(error)
			}
			out = out[:len(out)-1]
		}
		if len(out) == 0 {
			return nil, nil
		}
		return norm(out[0].Interface()), nil
	}
}

// normAll normalizes the items of a caller's list, copying only when an
// item needs it.
func normAll(l []any) []any {
	for i, v := range l {
		if n := norm(v); !sameValue(n, v) {
			out := append([]any(nil), l...)
			for j := i; j < len(out); j++ {
				out[j] = norm(out[j])
			}
			return out
		}
	}
	return l
}

// sameValue reports whether norm left v unchanged (comparing only the
// dynamic types, which is what norm changes).
func sameValue(a, b any) bool {
	return reflect.TypeOf(a) == reflect.TypeOf(b)
}

// toGo converts a template value into the plain Go value callers get back
// from Eval: tuples become []any, recursively.
func toGo(v any) any {
	switch x := v.(type) {
	case tuple:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = toGo(e)
		}
		return l
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = toGo(e)
		}
		return l
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = toGo(e)
		}
		return m
	case *namespace:
		return toGo(x.attrs)
	case *keyedDict:
		m := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			m[pyval.Str(k)] = toGo(x.vals[i])
		}
		return m
	}
	return v
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case tuple:
		return "tuple"
	case map[string]any, *keyedDict:
		return "dict"
	case *undefined:
		return "Undefined"
	case callable, *macro:
		return "function"
	case *loopInfo:
		return "LoopContext"
	case *namespace:
		return "Namespace"
	}
	return fmt.Sprintf("%T", v)
}

// truth is Python's bool(v).
func truth(v any) (bool, error) {
	switch x := v.(type) {
	case nil:
		return false, nil
	case bool:
		return x, nil
	case int64:
		return x != 0, nil
	case float64:
		return x != 0, nil
	case string:
		return x != "", nil
	case []any:
		return len(x) > 0, nil
	case tuple:
		return len(x) > 0, nil
	case map[string]any:
		return len(x) > 0, nil
	case *keyedDict:
		return len(x.keys) > 0, nil
	case *undefined:
		if x.soft {
			return false, nil
		}
		return false, x.err()
	}
	return true, nil
}

// str is Python's str(v) as Jinja prints it.
func str(v any) (string, error) {
	if u, ok := v.(*undefined); ok {
		if u.soft {
			return "", nil
		}
		return "", u.err()
	}
	return pyval.Str(v), nil
}

// repr is Python's repr(v); repr() of jinja2's Undefined does not raise.
func repr(v any) (string, error) {
	return pyval.Repr(v), nil
}

// PyRepr implements pyval.Reprer: a tuple is written in parentheses, with a
// trailing comma when it has one item.
func (t tuple) PyRepr() string {
	l := pyval.Repr([]any(t))
	if len(t) == 1 {
		return "(" + l[1:len(l)-1] + ",)"
	}
	return "(" + l[1:len(l)-1] + ")"
}

// PyRepr implements pyval.Reprer.
func (u *undefined) PyRepr() string { return "Undefined" }

// PyRepr implements pyval.Reprer.
func (n *namespace) PyRepr() string { return "<Namespace " + pyval.Repr(n.attrs) + ">" }

// PyRepr implements pyval.Reprer.
func (l *loopInfo) PyRepr() string { return fmt.Sprintf("<LoopContext %d/%d>", l.index+1, l.length) }

// PyRepr implements pyval.Reprer.
func (c callable) PyRepr() string { return "<function object>" }

// PyRepr implements pyval.Reprer.
func (m *macro) PyRepr() string { return "<function object>" }

func boolToInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compare is Python's ordering (<) for numbers, strings and sequences; it
// returns -1, 0 or 1.
func compare(a, b any) (int, error) {
	if u, ok := a.(*undefined); ok {
		return 0, u.err()
	}
	if u, ok := b.(*undefined); ok {
		return 0, u.err()
	}
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok {
			ia, aInt := asInt(a)
			ib, bInt := asInt(b)
			if aInt && bInt {
				return cmpOrdered(ia, ib), nil
			}
			return cmpOrdered(fa, fb), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case []any:
		if y, ok := b.([]any); ok {
			return compareSeq(x, y)
		}
	case tuple:
		if y, ok := b.(tuple); ok {
			return compareSeq(x, y)
		}
	}
	return 0, fmt.Errorf("'<' not supported between instances of '%s' and '%s'", typeName(a), typeName(b))
}

func compareSeq(x, y []any) (int, error) {
	for i := 0; i < len(x) && i < len(y); i++ {
		if pyval.Equal(x[i], y[i]) {
			continue
		}
		return compare(x[i], y[i])
	}
	return cmpOrdered(len(x), len(y)), nil
}

func cmpOrdered[T int | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// number reports v as a float64 when it is a Python number (bool included).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case bool:
		return float64(boolToInt(x)), true
	}
	return 0, false
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case bool:
		return boolToInt(x), true
	}
	return 0, false
}

// length is Python's len(v).
func length(v any) (int, error) {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x), nil
	case []any:
		return len(x), nil
	case tuple:
		return len(x), nil
	case map[string]any:
		return len(x), nil
	case *keyedDict:
		return len(x.keys), nil
	case *undefined:
		if x.soft {
			return 0, nil
		}
		return 0, x.err()
	}
	return 0, fmt.Errorf("object of type '%s' has no len()", typeName(v))
}

// iterate returns the items Python's iter(v) yields.
func iterate(r *renderer, v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return normAll(x), nil
	case tuple:
		return normAll(x), nil
	case string:
		out := make([]any, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	case map[string]any:
		keys := r.keys(x)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	case *keyedDict:
		return append([]any{}, x.keys...), nil
	case *undefined:
		if x.soft {
			return nil, nil
		}
		return nil, x.err()
	case nil:
		return nil, errors.New("'NoneType' object is not iterable")
	}
	return nil, fmt.Errorf("'%s' object is not iterable", typeName(v))
}

// contains is Python's `item in container`.
func contains(container, item any) (bool, error) {
	switch c := container.(type) {
	case string:
		s, ok := item.(string)
		if !ok {
			if u, isU := item.(*undefined); isU {
				return false, u.err()
			}
			return false, fmt.Errorf("'in <string>' requires string as left operand, not %s", typeName(item))
		}
		return strings.Contains(c, s), nil
	case []any:
		return indexOf(c, item) >= 0, nil
	case tuple:
		return indexOf(c, item) >= 0, nil
	case map[string]any:
		k, ok := item.(string)
		if !ok {
			switch item.(type) {
			case []any, map[string]any:
				return false, fmt.Errorf("unhashable type: '%s'", typeName(item))
			}
			return false, nil
		}
		_, found := c[k]
		return found, nil
	case *keyedDict:
		if err := hashable(item); err != nil {
			return false, err
		}
		_, found := c.get(item)
		return found, nil
	case *undefined:
		if c.soft {
			// jinja2.Undefined iterates as empty.
			return false, nil
		}
		return false, c.err()
	}
	return false, fmt.Errorf("argument of type '%s' is not iterable", typeName(container))
}

func indexOf(l []any, item any) int {
	for i, e := range l {
		if pyval.Equal(e, item) {
			return i
		}
	}
	return -1
}
