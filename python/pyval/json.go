package pyval

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONOptions are the arguments of json.dumps that lm-eval and Jinja2's
// tojson filter pass.
type JSONOptions struct {
	// Indent is json.dumps' indent: spaces per level, each item on a line
	// of its own, separators "," and ": ". Negative is indent=None: one
	// line, separators ", " and ": ".
	Indent int
	// ASCII is ensure_ascii: non-ASCII characters written as \uXXXX
	// escapes (surrogate pairs above U+FFFF).
	ASCII bool
	// Default is json.dumps' default: it turns a value JSON cannot hold
	// into one it can, or fails. Nil fails with Python's TypeError text.
	Default func(v any) (any, error)
	// ItemSep and KeySep are json.dumps' separators; "" is the default
	// for the indent (", " or "," between items, ": " after keys).
	ItemSep, KeySep string
	// SortKeys is sort_keys=True for a Dict too (a map[string]any is
	// always written sorted).
	SortKeys bool
}

// JSON is Python's json.dumps(v, ...) with the given options. A
// map[string]any is written with sorted keys (sort_keys=True; it has no
// order of its own), a Dict in its own order. NaN and the infinities are
// written as Python does, NaN and Infinity, which is not JSON.
func JSON(v any, o JSONOptions) (string, error) {
	var b strings.Builder
	err := o.write(&b, v, 0)
	return b.String(), err
}

// AppendJSON is JSON writing to b, for writers that put values into a
// text of their own.
func AppendJSON(b *strings.Builder, v any, o JSONOptions) error { return o.write(b, v, 0) }

func (o JSONOptions) write(b *strings.Builder, v any, depth int) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeJSONString(b, x, o.ASCII)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		writeJSONFloat(b, x)
	case []any:
		return o.writeSeq(b, len(x), '[', ']', depth, func(i int) error { return o.write(b, x[i], depth+1) })
	case map[string]any:
		keys := SortedKeys(x)
		return o.writeSeq(b, len(keys), '{', '}', depth, func(i int) error { return o.writeItem(b, keys[i], x[keys[i]], depth) })
	case Dict:
		keys := x.Keys()
		if o.SortKeys {
			keys = slices.Sorted(slices.Values(keys))
		}
		return o.writeSeq(b, len(keys), '{', '}', depth, func(i int) error {
			v, _ := x.Get(keys[i])
			return o.writeItem(b, keys[i], v, depth)
		})
	default:
		rv := reflect.ValueOf(v)
		if writeInt(b, rv) {
			return nil
		}
		switch rv.Kind() {
		case reflect.Float32, reflect.Float64:
			writeJSONFloat(b, rv.Float())
		case reflect.Slice, reflect.Array:
			// Tuples and typed slices are lists to json.dumps.
			return o.writeSeq(b, rv.Len(), '[', ']', depth, func(i int) error { return o.write(b, rv.Index(i).Interface(), depth+1) })
		default:
			if o.Default == nil {
				return fmt.Errorf("Object of type %T is not JSON serializable", v)
			}
			d, err := o.Default(v)
			if err != nil {
				return err
			}
			return o.write(b, d, depth)
		}
	}
	return nil
}

func (o JSONOptions) writeItem(b *strings.Builder, k string, v any, depth int) error {
	writeJSONString(b, k, o.ASCII)
	if o.KeySep != "" {
		b.WriteString(o.KeySep)
	} else {
		b.WriteString(": ")
	}
	return o.write(b, v, depth+1)
}

func (o JSONOptions) writeSeq(b *strings.Builder, n int, open, close byte, depth int, item func(i int) error) error {
	b.WriteByte(open)
	if n == 0 {
		b.WriteByte(close)
		return nil
	}
	sep := ", "
	if o.Indent >= 0 {
		sep = ","
	}
	if o.ItemSep != "" {
		sep = o.ItemSep
	}
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		o.newline(b, depth+1)
		if err := item(i); err != nil {
			return err
		}
	}
	o.newline(b, depth)
	b.WriteByte(close)
	return nil
}

func (o JSONOptions) newline(b *strings.Builder, depth int) {
	if o.Indent >= 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", o.Indent*depth))
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

// writeJSONString escapes as json.dumps does: ", \, the C escapes \n \r
// \t \b \f, other control characters as \u00XX and, with ascii, all but
// printable ASCII. Runs of characters that need no escape are copied as
// they are (samples files write every prompt through here).
func writeJSONString(b *strings.Builder, s string, ascii bool) {
	b.WriteByte('"')
	if !utf8.ValidString(s) {
		// Invalid bytes become U+FFFD, as ranging over s decodes them.
		for _, r := range s {
			writeJSONRune(b, r, ascii)
		}
		b.WriteByte('"')
		return
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && (c < 0x7f || !ascii) {
			i++
			continue
		}
		b.WriteString(s[start:i])
		r, n := utf8.DecodeRuneInString(s[i:])
		writeJSONRune(b, r, ascii)
		i += n
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// writeJSONRune writes one character of a JSON string as json.dumps does.
func writeJSONRune(b *strings.Builder, r rune, ascii bool) {
	switch {
	case r == '"':
		b.WriteString(`\"`)
	case r == '\\':
		b.WriteString(`\\`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\b':
		b.WriteString(`\b`)
	case r == '\f':
		b.WriteString(`\f`)
	case !ascii && r >= 0x20:
		b.WriteRune(r)
	case r < 0x20 || r >= 0x7f && r <= 0xffff:
		fmt.Fprintf(b, `\u%04x`, r)
	case r > 0xffff:
		hi, lo := utf16.EncodeRune(r)
		fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
	default:
		b.WriteRune(r)
	}
}
