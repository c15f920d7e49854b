package pyval

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LiteralEval is Python's ast.literal_eval: str (with prefixes r and u,
// triple quotes and adjacent literals joined), int, float, True, False,
// None, and lists, tuples and dicts of them. Lists and tuples (a bare
// `a, b` too) are returned as []any, ints as int64 and dicts as
// map[string]any, a key that is not a str under its str(). Sets, bytes,
// complex numbers and ints beyond 64 bits are refused.
func LiteralEval(s string) (any, error) {
	p := &litParser{s: strings.TrimLeft(s, " \t")}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ',' {
		items := []any{v}
		for p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			if p.i == len(p.s) {
				break
			}
			e, err := p.value()
			if err != nil {
				return nil, err
			}
			items = append(items, e)
			p.space()
		}
		v = items
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at offset %d", p.rest(), p.i)
	}
	return v, nil
}

type litParser struct {
	s     string
	i     int
	depth int  // open brackets: newlines are whitespace inside them
	begun bool // a token was read: newlines before the first are blank lines
}

func (p *litParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20]
	}
	return r
}

func (p *litParser) space() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			p.i++
		case c == '\\' && p.i+1 < len(p.s) && p.s[p.i+1] == '\n':
			p.i += 2
		case (c == '\n' || c == '\r') && (p.depth > 0 || !p.begun || strings.TrimSpace(p.s[p.i:]) == ""):
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *litParser) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("unexpected end of input")
	}
	p.begun = true
	c := p.s[p.i]
	switch {
	case c == '[':
		p.i++
		p.depth++
		items, _, err := p.items(']')
		p.depth--
		return items, err
	case c == '(':
		p.i++
		p.depth++
		items, trailingComma, err := p.items(')')
		p.depth--
		if err != nil {
			return nil, err
		}
		if len(items) == 1 && !trailingComma {
			return items[0], nil
		}
		return items, nil
	case c == '{':
		p.i++
		p.depth++
		defer func() { p.depth-- }()
		return p.dict()
	case c == '-' || c == '+':
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			if c == '-' {
				return -x, nil
			}
			return x, nil
		case float64:
			if c == '-' {
				return -x, nil
			}
			return x, nil
		}
		return nil, fmt.Errorf("bad operand for unary %c", c)
	case c == '\'' || c == '"':
		return p.strings()
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	}
	if p.prefixedString() {
		return p.strings()
	}
	for _, kw := range []struct {
		name string
		v    any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], kw.name) && !isIdent(p.s, p.i+len(kw.name)) {
			p.i += len(kw.name)
			return kw.v, nil
		}
	}
	return nil, fmt.Errorf("unexpected %q", p.rest())
}

func isIdent(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *litParser) prefixedString() bool {
	j := p.i
	for j < len(p.s) && j-p.i < 2 && strings.IndexByte("rRuU", p.s[j]) >= 0 {
		j++
	}
	return j > p.i && j < len(p.s) && (p.s[j] == '\'' || p.s[j] == '"')
}

func (p *litParser) items(close byte) ([]any, bool, error) {
	items := []any{}
	trailing := false
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return items, trailing, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, false, err
		}
		items = append(items, v)
		p.space()
		trailing = false
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			trailing = true
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return items, false, nil
		}
		return nil, false, fmt.Errorf("expected ',' or '%c' at %q", close, p.rest())
	}
}

func (p *litParser) dict() (any, error) {
	m := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		switch k.(type) {
		case []any, map[string]any:
			return nil, fmt.Errorf("unsupported dict key %s", Repr(k))
		}
		ks := Str(k)
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, fmt.Errorf("expected ':'")
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[ks] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		return nil, fmt.Errorf("expected ',' or '}'")
	}
}

func (p *litParser) number() (any, error) {
	j := p.i
	isFloat := false
	if strings.HasPrefix(p.s[j:], "0x") || strings.HasPrefix(p.s[j:], "0X") || strings.HasPrefix(p.s[j:], "0o") || strings.HasPrefix(p.s[j:], "0O") || strings.HasPrefix(p.s[j:], "0b") || strings.HasPrefix(p.s[j:], "0B") {
		j += 2
		for j < len(p.s) && isIdent(p.s, j) {
			j++
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(p.s[p.i:j], "_", ""), 0, 64)
		if err != nil {
			return nil, err
		}
		p.i = j
		return v, nil
	}
	for j < len(p.s) {
		c := p.s[j]
		switch {
		case c >= '0' && c <= '9' || c == '_':
		case c == '.':
			isFloat = true
		case c == 'e' || c == 'E':
			isFloat = true
			if j+1 < len(p.s) && (p.s[j+1] == '+' || p.s[j+1] == '-') {
				j++
			}
		default:
			goto done
		}
		j++
	}
done:
	text := strings.ReplaceAll(p.s[p.i:j], "_", "")
	if j < len(p.s) && (p.s[j] == 'j' || p.s[j] == 'J') {
		return nil, fmt.Errorf("complex numbers are not supported")
	}
	p.i = j
	if isFloat {
		return strconv.ParseFloat(text, 64)
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return nil, fmt.Errorf("leading zeros in decimal integer literals are not permitted")
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if _, ok := new(big.Int).SetString(text, 10); ok {
			return nil, fmt.Errorf("integer %s does not fit in 64 bits", text)
		}
		return nil, err
	}
	return v, nil
}

// strings parses one or more adjacent string literals (Python concatenates
// them).
func (p *litParser) strings() (any, error) {
	var b strings.Builder
	for {
		p.space()
		raw := false
		for p.i < len(p.s) && strings.IndexByte("rRuU", p.s[p.i]) >= 0 {
			if p.s[p.i] == 'r' || p.s[p.i] == 'R' {
				raw = true
			}
			p.i++
		}
		if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
			if b.Len() == 0 {
				return nil, fmt.Errorf("expected a string")
			}
			return b.String(), nil
		}
		q := p.s[p.i : p.i+1]
		if strings.HasPrefix(p.s[p.i:], q+q+q) {
			q = q + q + q
		}
		p.i += len(q)
		for {
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("unterminated string")
			}
			if strings.HasPrefix(p.s[p.i:], q) {
				p.i += len(q)
				break
			}
			c := p.s[p.i]
			if c == '\n' && len(q) == 1 {
				return nil, fmt.Errorf("newline in string")
			}
			if c != '\\' {
				r, n := utf8.DecodeRuneInString(p.s[p.i:])
				b.WriteRune(r)
				p.i += n
				continue
			}
			if p.i+1 >= len(p.s) {
				return nil, fmt.Errorf("unterminated string")
			}
			if raw {
				b.WriteByte('\\')
				b.WriteByte(p.s[p.i+1])
				p.i += 2
				continue
			}
			if err := p.escape(&b); err != nil {
				return nil, err
			}
		}
		p.spaceNoNewline()
		if p.i >= len(p.s) || strings.IndexByte("'\"rRuU", p.s[p.i]) < 0 {
			return b.String(), nil
		}
		if c := p.s[p.i]; c != '\'' && c != '"' && !p.prefixedString() {
			return b.String(), nil
		}
	}
}

func (p *litParser) spaceNoNewline() {
	save := p.depth
	if save == 0 {
		for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
			p.i++
		}
		return
	}
	p.space()
}

func (p *litParser) escape(b *strings.Builder) error {
	c := p.s[p.i+1]
	p.i += 2
	simple := map[byte]string{'\\': "\\", '\'': "'", '"': "\"", 'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v", '\n': ""}
	if s, ok := simple[c]; ok {
		b.WriteString(s)
		return nil
	}
	hex := func(n int) error {
		if p.i+n > len(p.s) {
			return fmt.Errorf("truncated escape")
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil {
			return fmt.Errorf("bad escape")
		}
		b.WriteRune(rune(v))
		p.i += n
		return nil
	}
	switch c {
	case 'x':
		return hex(2)
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case 'N':
		return fmt.Errorf("\\N{...} escapes are not supported")
	}
	if c >= '0' && c <= '7' {
		v := int(c - '0')
		for k := 0; k < 2 && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '7'; k++ {
			v = v*8 + int(p.s[p.i]-'0')
			p.i++
		}
		b.WriteRune(rune(v))
		return nil
	}
	// Unknown escapes stay as written, as in Python.
	b.WriteByte('\\')
	b.WriteByte(c)
	return nil
}
