package pyval

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"unicode"
)

// Truthy is Python's bool(v): None, False, zero numbers, the empty string
// and empty lists and dicts are false; everything else is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case Dict:
		return len(x.Keys()) > 0
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return r.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return r.Float() != 0
	case reflect.Slice, reflect.Map, reflect.Array:
		return r.Len() > 0
	case reflect.Pointer, reflect.Interface:
		return !r.IsNil()
	}
	return true
}

// Int is Python's int(v) for a number, a bool or a string (int("7"),
// int(" -1_000 "), int("٣"): surrounding whitespace, a sign, underscores
// between digits and any Unicode decimal digits); a float is truncated.
// What Python refuses (int("1.5"), int(None), an integer past int64) is
// an error.
func Int(v any) (int64, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1<<63 {
			return 0, fmt.Errorf("int(%s): cannot convert float", FloatRepr(x))
		}
		return int64(x), nil
	case string:
		return parseInt(x)
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return int64(r.Uint()), nil
	case reflect.Float32:
		return Int(r.Float())
	}
	return 0, fmt.Errorf("int() argument must be a string or a number, not %s", typeName(v))
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "'NoneType'"
	case []any:
		return "'list'"
	case map[string]any, Dict:
		return "'dict'"
	}
	return fmt.Sprintf("%T", v)
}

func parseInt(s string) (int64, error) {
	bad := fmt.Errorf("invalid literal for int() with base 10: %s", Repr(s))
	t := strings.TrimFunc(s, isPySpace)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, bad
	}
	n := new(big.Int)
	ten := big.NewInt(10)
	prevDigit := false
	for _, r := range t {
		if r == '_' {
			if !prevDigit {
				return 0, bad
			}
			prevDigit = false
			continue
		}
		d, ok := decimal(r)
		if !ok {
			return 0, bad
		}
		n.Mul(n, ten).Add(n, big.NewInt(int64(d)))
		prevDigit = true
	}
	if !prevDigit {
		return 0, bad
	}
	if neg {
		n.Neg(n)
	}
	if !n.IsInt64() {
		return 0, fmt.Errorf("int(%s): out of lmeval's int64 range", Repr(s))
	}
	return n.Int64(), nil
}

// decimal is a Unicode decimal digit's value (Nd runs are blocks of ten
// from a zero).
func decimal(r rune) (int, bool) {
	if !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	z := r
	for unicode.Is(unicode.Nd, z-1) {
		z--
	}
	return int(r-z) % 10, true
}

// isPySpace is Python's str.isspace() for one character (pyre.IsSpace).
func isPySpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= ' ', r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
