// Package pyval writes and reads values as Python does: repr() and str(),
// json.dumps and ast.literal_eval. lm-eval builds prompts, targets, hashes
// and result files with these functions, so matching their output to the
// character is what keeps lmeval's numbers and files equal to lm-eval's.
//
// Values are plain Go values with their Python meaning: nil is None, bool,
// any integer type int, float32/float64 float, string str, slices list and
// map[string]any dict (keys in sorted order, having no order of their own).
// A type with a Python meaning of its own implements Reprer, and an ordered
// dict implements Dict.
package pyval

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A Reprer writes its own Python repr(), as a tuple or an object of a
// template engine does.
type Reprer interface {
	PyRepr() string
}

// A Dict is a dict whose keys keep the order they were inserted in, as a
// Python dict does.
type Dict interface {
	Keys() []string
	Get(key string) (any, bool)
}

// Str is Python's str(v): strings as themselves, everything else as Repr.
func Str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return Repr(v)
}

// Repr is Python's repr(v). A value of no Python type is written with
// fmt.Sprint.
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(Quote(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(FloatRepr(x))
	case Reprer:
		b.WriteString(x.PyRepr())
	case []any:
		writeList(b, len(x), func(i int) any { return x[i] })
	case []string:
		writeList(b, len(x), func(i int) any { return x[i] })
	case map[string]any:
		writeDict(b, SortedKeys(x), func(k string) any { return x[k] })
	case Dict:
		writeDict(b, x.Keys(), func(k string) any { v, _ := x.Get(k); return v })
	default:
		rv := reflect.ValueOf(v)
		if writeInt(b, rv) {
			return
		}
		switch rv.Kind() {
		case reflect.Float32, reflect.Float64:
			b.WriteString(FloatRepr(rv.Float()))
		case reflect.Slice, reflect.Array:
			writeList(b, rv.Len(), func(i int) any { return rv.Index(i).Interface() })
		default:
			fmt.Fprint(b, v)
		}
	}
}

// writeInt writes a value of any Go integer kind; it reports false for
// other kinds.
func writeInt(b *strings.Builder, rv reflect.Value) bool {
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(rv.Uint(), 10))
	default:
		return false
	}
	return true
}

func writeList(b *strings.Builder, n int, item func(int) any) {
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		writeRepr(b, item(i))
	}
	b.WriteByte(']')
}

func writeDict(b *strings.Builder, keys []string, get func(string) any) {
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(k))
		b.WriteString(": ")
		writeRepr(b, get(k))
	}
	b.WriteByte('}')
}

// SortedKeys returns the keys of m in sorted order, the order in which a
// map[string]any is written.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// FloatRepr is Python's repr(float): the shortest digits that round-trip,
// in fixed notation (always with a fractional part) for exponents -4..15,
// in scientific notation with at least two exponent digits otherwise.
func FloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// Quote is Python's repr(str): single quotes unless the string holds a
// single quote and no double quote; backslash escapes for the quote, the
// backslash, \n \r \t and every character str.isprintable refuses (\xhh up
// to U+00FF, then \uhhhh and \Uhhhhhhhh).
func Quote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || IsPrintable(r):
			// Invalid UTF-8 reads as U+FFFD, which is printable.
			b.WriteRune(r)
		default:
			writeEscape(&b, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// ASCII is Python's ascii(v): Repr with every non-ASCII character escaped.
func ASCII(v any) string {
	s := Repr(v)
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			writeEscape(&b, r)
		}
	}
	return b.String()
}

// writeEscape writes r as Python escapes it: \xhh up to U+00FF, then
// \uhhhh and \Uhhhhhhhh.
func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r <= 0xff:
		fmt.Fprintf(b, `\x%02x`, r)
	case r <= 0xffff:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		fmt.Fprintf(b, `\U%08x`, r)
	}
}

// IsPrintable is Python's str.isprintable for one character: false for
// the Unicode categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the
// ASCII space.
func IsPrintable(r rune) bool {
	if r == ' ' {
		return true
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co, unicode.Zl, unicode.Zp, unicode.Zs) {
		return false
	}
	return unicode.IsPrint(r) || unicode.IsGraphic(r) || unicode.IsMark(r)
}
