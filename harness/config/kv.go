package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SplitTopLevel splits s on commas outside brackets, braces, parentheses
// and quotes, as lm-eval's split_top_level: a quote opens a span only at the
// start of a token (so "don't" stays literal) and only when it has a partner
// later in the string. Empty parts are dropped.
func SplitTopLevel(s string) []string {
	var parts []string
	var buf strings.Builder
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '"' || c == '\'') && opensQuote(s, i):
			quote = c
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			depth = max(depth-1, 0)
		case c == ',' && depth == 0:
			if buf.Len() > 0 {
				parts = append(parts, buf.String())
			}
			buf.Reset()
			continue
		}
		buf.WriteByte(c)
	}
	if buf.Len() > 0 {
		parts = append(parts, buf.String())
	}
	return parts
}

func opensQuote(s string, i int) bool {
	if i > 0 && !strings.ContainsRune("=,[({: \t", rune(s[i-1])) {
		return false
	}
	return strings.IndexByte(s[i+1:], s[i]) >= 0
}

// ParseKeyValues parses "k=v,k2=v2" (or a JSON object) into typed values as
// lm-eval's key_val_to_dict: true/false become bools, numbers numbers, and
// Python literals (lists, quoted strings, dicts) their values; anything else
// stays a string.
func ParseKeyValues(s string) (map[string]any, error) {
	out := map[string]any{}
	t := strings.TrimSpace(s)
	if t == "" {
		return out, nil
	}
	if strings.HasPrefix(t, "{") {
		if err := json.Unmarshal([]byte(t), &out); err != nil {
			return nil, fmt.Errorf("invalid JSON object %q (use double quotes): %w", t, err)
		}
		return out, nil
	}
	for _, item := range SplitTopLevel(t) {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("expected key=value, got %q", item)
		}
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("expected key=value, got %q (empty key)", item)
		}
		out[k] = CLIValue(v)
	}
	return out, nil
}

// CLIValue converts one command-line value as lm-eval's
// handle_cli_value_string does.
func CLIValue(s string) any {
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	}
	if i, err := strconv.ParseInt(strings.TrimSpace(strings.ReplaceAll(s, "_", "")), 10, 64); err == nil && s != "" {
		return i
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		return f
	}
	if v, err := ParsePythonLiteral(s); err == nil {
		return v
	}
	return s
}

// ArgString renders a typed value (from a YAML config file or a JSON
// object) as the string a backend's model_args receive: strings as
// themselves, numbers and booleans in Go's shortest form, lists and maps as
// JSON.
func ArgString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "None"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ParsePythonLiteral evaluates a Python literal as ast.literal_eval does
// for the forms command lines use: strings ('..' or ".." with escapes),
// integers, floats, True/False/None, lists, tuples and dicts. Lists and
// tuples become []any, dicts map[string]any (keys converted with
// fmt.Sprint), integers int64.
func ParsePythonLiteral(s string) (any, error) {
	p := &litParser{s: s}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at offset %d in %q", p.s[p.i:], p.i, s)
	}
	return v, nil
}

type litParser struct {
	s string
	i int
}

func (p *litParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("not a Python literal: %q: %s", p.s, fmt.Sprintf(format, args...))
}

func (p *litParser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		return p.str()
	case c == '[':
		return p.seq(']')
	case c == '(':
		return p.seq(')')
	case c == '{':
		return p.dict()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, kw := range []struct {
		word string
		v    any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], kw.word) {
			end := p.i + len(kw.word)
			if end == len(p.s) || !isIdent(p.s[end]) {
				p.i = end
				return kw.v, nil
			}
		}
	}
	return nil, p.errorf("unexpected %q", p.s[p.i:])
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *litParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE_xXabcdefABCDEFoO", p.s[p.i]) >= 0 {
		// a sign is part of the number only at its start or after an exponent
		if (p.s[p.i] == '+' || p.s[p.i] == '-') && p.i > start && p.s[p.i-1] != 'e' && p.s[p.i-1] != 'E' {
			break
		}
		p.i++
	}
	tok := strings.ReplaceAll(p.s[start:p.i], "_", "")
	lower := strings.ToLower(tok)
	isHex := strings.Contains(lower, "0x")
	if isHex || !strings.ContainsAny(lower, ".e") {
		if i, err := strconv.ParseInt(tok, 0, 64); err == nil {
			return i, nil
		}
	} else if f, err := strconv.ParseFloat(tok, 64); err == nil {
		return f, nil
	}
	return nil, p.errorf("bad number %q", tok)
}

func (p *litParser) str() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			e := p.s[p.i]
			p.i++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return nil, p.errorf("truncated \\%c escape", e)
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return nil, p.errorf("bad \\%c escape", e)
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				// Python keeps unknown escapes verbatim.
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return nil, p.errorf("unterminated string")
}

func (p *litParser) seq(close byte) (any, error) {
	p.i++
	out := []any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return out, nil
		}
		return nil, p.errorf("expected ',' or %q", close)
	}
}

func (p *litParser) dict() (any, error) {
	p.i++
	out := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return out, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("expected ':'")
		}
		p.i++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out[fmt.Sprint(k)] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return out, nil
		}
		return nil, p.errorf("expected ',' or '}'")
	}
}

// ParseModelArgs parses one --model_args value ("k=v,k2=v2" or a JSON
// object) into backend arguments. Values keep their text, except that a
// quoted value loses its quotes, so pretrained="/a,b.gguf" passes a path
// containing a comma.
func ParseModelArgs(s string) (map[string]string, error) {
	out := map[string]string{}
	t := strings.TrimSpace(s)
	if t == "" {
		return out, nil
	}
	if strings.HasPrefix(t, "{") {
		m, err := ParseKeyValues(t)
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			out[k] = ArgString(v)
		}
		return out, nil
	}
	for _, item := range SplitTopLevel(t) {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("expected key=value, got %q", item)
		}
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("expected key=value, got %q (empty key)", item)
		}
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			if s, err := ParsePythonLiteral(v); err == nil {
				v = s.(string)
			}
		}
		out[k] = v
	}
	return out, nil
}
