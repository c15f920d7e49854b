package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python's ways of writing values, which lm-eval's hashes and files depend
// on: repr(float), str(x), json.dumps(x, indent=..., ensure_ascii=False).

// Float is a number written as Python writes a float (1.0, not 1), so
// results files keep lm-eval's number types through a round trip. NaN and
// infinities, which Python writes as bare NaN/Infinity (not JSON), are
// written as null.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return []byte(FloatRepr(x)), nil
}

// FloatRepr is Python's repr(float): the shortest round-tripping digits,
// fixed notation for exponents -4..15 (always with a fractional part),
// scientific otherwise with at least two exponent digits.
func FloatRepr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, expS, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	sign := ""
	if neg {
		sign = "-"
	}
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	var s string
	if exp < 0 {
		s = "0." + strings.Repeat("0", -exp-1) + digits
	} else if len(digits) <= exp+1 {
		s = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	} else {
		s = digits[:exp+1] + "." + digits[exp+1:]
	}
	return sign + s
}

// HashString is lm-eval's hash_string: hex SHA-256 of the UTF-8 text.
func HashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// PyStr is Python's str(v) for JSON-like values (containers use repr of
// their elements).
func PyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return PyRepr(v)
}

// PyRepr is Python's repr(v) for JSON-like values.
func PyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return reprString(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return FloatRepr(x)
	case Float:
		return FloatRepr(float64(x))
	case float32:
		return FloatRepr(float64(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = PyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []string:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = reprString(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := sortedKeys(x)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = reprString(k) + ": " + PyRepr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *OrderedMap[any]:
		parts := make([]string, 0, x.Len())
		for _, k := range x.keys {
			parts = append(parts, reprString(k)+": "+PyRepr(x.m[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice {
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = PyRepr(rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// reprString quotes like Python's str.__repr__.
func reprString(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
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
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			if r <= 0xffff {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// PyJSON is Python's json.dumps(v, indent=indent, ensure_ascii=False) for
// JSON-like values (indent < 0: no indentation, separators ", " and ": ").
// Plain Go maps have no order; their keys are written sorted, while an
// *OrderedMap keeps its order, as a dict from a dataset row does.
func PyJSON(v any, indent int) string {
	var b strings.Builder
	writePyJSON(&b, v, indent, 0)
	return b.String()
}

func writePyJSON(b *strings.Builder, v any, indent, depth int) {
	nl := func(d int) {
		if indent >= 0 {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent*d))
		}
	}
	sep := ", "
	if indent >= 0 {
		sep = ","
	}
	writeSeq := func(n int, open, close byte, item func(i int)) {
		b.WriteByte(open)
		if n == 0 {
			b.WriteByte(close)
			return
		}
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(depth + 1)
			item(i)
		}
		nl(depth)
		b.WriteByte(close)
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeJSONString(b, x)
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		writeJSONFloat(b, x)
	case Float:
		writeJSONFloat(b, float64(x))
	case float32:
		writeJSONFloat(b, float64(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		fmt.Fprint(b, x)
	case map[string]any:
		keys := sortedKeys(x)
		writeSeq(len(keys), '{', '}', func(i int) {
			writeJSONString(b, keys[i])
			b.WriteString(": ")
			writePyJSON(b, x[keys[i]], indent, depth+1)
		})
	case *OrderedMap[any]:
		writeSeq(len(x.keys), '{', '}', func(i int) {
			writeJSONString(b, x.keys[i])
			b.WriteString(": ")
			writePyJSON(b, x.m[x.keys[i]], indent, depth+1)
		})
	case []any:
		writeSeq(len(x), '[', ']', func(i int) { writePyJSON(b, x[i], indent, depth+1) })
	default:
		rv := reflect.ValueOf(v)
		if rv.Kind() == reflect.Slice {
			writeSeq(rv.Len(), '[', ']', func(i int) { writePyJSON(b, rv.Index(i).Interface(), indent, depth+1) })
			return
		}
		// lm-eval's handle_non_serializable: str(o)
		writeJSONString(b, fmt.Sprint(v))
	}
}

func writeJSONFloat(b *strings.Builder, x float64) {
	switch {
	case math.IsNaN(x):
		b.WriteString("NaN")
	case math.IsInf(x, 1):
		b.WriteString("Infinity")
	case math.IsInf(x, -1):
		b.WriteString("-Infinity")
	default:
		b.WriteString(FloatRepr(x))
	}
}

// writeJSONString escapes as Python's json with ensure_ascii=False.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
