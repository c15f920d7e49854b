package jinja

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// writeJSON is Python's json.dumps(v, sort_keys=True, indent=indent,
// ensure_ascii=ascii) as Jinja2's tojson filter calls it: with ascii,
// \uXXXX escapes (surrogate pairs above U+FFFF); ", " and ": " separators.
func writeJSON(b *strings.Builder, v any, indent, depth int, ascii bool) error {
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
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		switch {
		case math.IsNaN(x):
			b.WriteString("NaN")
		case math.IsInf(x, 1):
			b.WriteString("Infinity")
		case math.IsInf(x, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(formatFloat(x))
		}
	case string:
		writeJSONString(b, x, ascii)
	case []any, tuple:
		var items []any
		if l, ok := x.([]any); ok {
			items = l
		} else {
			items = x.(tuple)
		}
		if len(items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, e := range items {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(depth + 1)
			if err := writeJSON(b, e, indent, depth+1, ascii); err != nil {
				return err
			}
		}
		nl(depth)
		b.WriteByte(']')
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(depth + 1)
			writeJSONString(b, k, ascii)
			b.WriteString(": ")
			if err := writeJSON(b, x[k], indent, depth+1, ascii); err != nil {
				return err
			}
		}
		nl(depth)
		b.WriteByte('}')
	case *undefined:
		return x.err()
	default:
		return fmt.Errorf("Object of type %s is not JSON serializable", typeName(v))
	}
	return nil
}

func writeJSONString(b *strings.Builder, s string, ascii bool) {
	b.WriteByte('"')
	for _, r := range s {
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
	b.WriteByte('"')
}
