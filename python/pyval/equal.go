package pyval

import (
	"math"
	"reflect"
)

// Equal is Python's a == b: numbers (bool among them) by value, str and
// None by identity of value, lists element by element, dicts key by key.
// Slices of different named types (a template engine's tuple and a list)
// are unequal, as a tuple and a list are in Python.
func Equal(a, b any) bool {
	if na, ok := asNumber(a); ok {
		nb, ok := asNumber(b)
		return ok && na.equal(nb)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	}
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if isList(ra) && isList(rb) {
		if ra.Type() != rb.Type() && (ra.Type().Name() != "" || rb.Type().Name() != "") {
			return false
		}
		if ra.Len() != rb.Len() {
			return false
		}
		for i := range ra.Len() {
			if !Equal(ra.Index(i).Interface(), rb.Index(i).Interface()) {
				return false
			}
		}
		return true
	}
	if b == nil || !ra.Comparable() || !rb.Comparable() {
		return false
	}
	return a == b
}

func isList(v reflect.Value) bool {
	return v.Kind() == reflect.Slice || v.Kind() == reflect.Array
}

// number is a Python int or float; ints compare exactly, not through a
// float64.
type number struct {
	i       int64
	f       float64
	isFloat bool
}

func asNumber(v any) (number, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return number{i: 1}, true
		}
		return number{}, true
	case int:
		return number{i: int64(x)}, true
	case int64:
		return number{i: x}, true
	case float64:
		return number{f: x, isFloat: true}, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return number{i: rv.Int()}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return number{i: int64(rv.Uint())}, true
	case reflect.Float32, reflect.Float64:
		return number{f: rv.Float(), isFloat: true}, true
	}
	return number{}, false
}

func (a number) equal(b number) bool {
	switch {
	case !a.isFloat && !b.isFloat:
		return a.i == b.i
	case a.isFloat && b.isFloat:
		return a.f == b.f
	case a.isFloat:
		return exactly(a.f, b.i)
	}
	return exactly(b.f, a.i)
}

// exactly reports whether f == i as Python compares an int with a float:
// exactly, not after rounding i to a float.
func exactly(f float64, i int64) bool {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return false
	}
	return int64(f) == i
}
