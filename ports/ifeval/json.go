package ifeval

// PyJSONValid reports whether Python's json.loads(s) succeeds: RFC 8259
// JSON plus the NaN, Infinity and -Infinity literals Python accepts, any
// value at the top level, whitespace limited to space, tab, newline and
// carriage return, and control characters refused inside strings.
func PyJSONValid(s string) bool {
	p := jsonParser{s: s}
	p.ws()
	if !p.value(0) {
		return false
	}
	p.ws()
	return p.i == len(p.s)
}

type jsonParser struct {
	s string
	i int
}

// maxDepth stands in for Python's recursion limit, which json.loads turns
// into a RecursionError rather than a ValueError; documents that deep are
// refused here.
const maxDepth = 900

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) lit(w string) bool {
	if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
		p.i += len(w)
		return true
	}
	return false
}

func (p *jsonParser) value(depth int) bool {
	if p.i >= len(p.s) || depth > maxDepth {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		p.ws()
		if p.lit("}") {
			return true
		}
		for {
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != '"' || !p.str() {
				return false
			}
			p.ws()
			if !p.lit(":") {
				return false
			}
			p.ws()
			if !p.value(depth + 1) {
				return false
			}
			p.ws()
			if p.lit("}") {
				return true
			}
			if !p.lit(",") {
				return false
			}
		}
	case c == '[':
		p.i++
		p.ws()
		if p.lit("]") {
			return true
		}
		for {
			p.ws()
			if !p.value(depth + 1) {
				return false
			}
			p.ws()
			if p.lit("]") {
				return true
			}
			if !p.lit(",") {
				return false
			}
		}
	case c == '"':
		return p.str()
	case c == 'n':
		return p.lit("null")
	case c == 't':
		return p.lit("true")
	case c == 'f':
		return p.lit("false")
	case c == 'N':
		return p.lit("NaN")
	case c == 'I':
		return p.lit("Infinity")
	case c == '-' || (c >= '0' && c <= '9'):
		if p.lit("-Infinity") {
			return true
		}
		return p.number()
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *jsonParser) number() bool {
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
		return false
	}
	if p.s[p.i] == '0' {
		p.i++
	} else {
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	// A fraction or exponent that does not complete is left unconsumed, as
	// Python's scanner does (the caller then sees extra data).
	if p.i+1 < len(p.s) && p.s[p.i] == '.' && isDigit(p.s[p.i+1]) {
		p.i += 2
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if j < len(p.s) && isDigit(p.s[j]) {
			for j < len(p.s) && isDigit(p.s[j]) {
				j++
			}
			p.i = j
		}
	}
	return true
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *jsonParser) str() bool {
	p.i++ // opening quote
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return false
			}
			switch p.s[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.s) {
					return false
				}
				for k := p.i + 2; k < p.i+6; k++ {
					if !isHex(p.s[k]) {
						return false
					}
				}
				p.i += 6
			default:
				return false
			}
		default:
			p.i++
		}
	}
	return false
}
