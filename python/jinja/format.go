package jinja

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyval"
)

// percentFormat is Python's printf-style `format % args`.
func percentFormat(format string, args any) (string, error) {
	var list []any
	var mapping map[string]any
	switch a := args.(type) {
	case tuple:
		list = a
	case map[string]any:
		mapping = a
		list = []any{a}
	default:
		list = []any{a}
	}
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return "", errors.New("incomplete format")
		}
		var key string
		hasKey := false
		if format[i] == '(' {
			end := strings.IndexByte(format[i:], ')')
			if end < 0 {
				return "", errors.New("incomplete format key")
			}
			key, hasKey = format[i+1:i+end], true
			i += end + 1
		}
		spec := fmtSpec{precision: -1, percent: true}
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				spec.align = '<'
			case '+':
				spec.sign = '+'
			case ' ':
				if spec.sign == 0 {
					spec.sign = ' '
				}
			case '#':
				spec.alt = true
			case '0':
				spec.zero = true
			default:
				break flags
			}
		}
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			spec.width = spec.width*10 + int(format[i]-'0')
		}
		if i < len(format) && format[i] == '.' {
			i++
			spec.precision = 0
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				spec.precision = spec.precision*10 + int(format[i]-'0')
			}
		}
		for i < len(format) && strings.IndexByte("hlL", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return "", errors.New("incomplete format")
		}
		spec.verb = format[i]
		if spec.verb == '%' {
			b.WriteByte('%')
			continue
		}
		var arg any
		if hasKey {
			if mapping == nil {
				return "", errors.New("format requires a mapping")
			}
			v, ok := mapping[key]
			if !ok {
				return "", fmt.Errorf("KeyError: '%s'", key)
			}
			arg = v
		} else {
			if next >= len(list) {
				return "", errors.New("not enough arguments for format string")
			}
			arg = list[next]
			next++
		}
		if spec.align == '<' {
			spec.zero = false
		}
		s, err := formatOne(spec, arg)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	// Python takes any non-tuple argument with __getitem__ (a dict, a
	// list) for a mapping: unused, it is no error.
	_, isList := args.([]any)
	if mapping == nil && !isList && next < len(list) {
		return "", errors.New("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

type fmtSpec struct {
	fill      rune
	align     byte // '<', '>', '^', '=' or 0
	sign      byte // '+', ' ', '-' or 0
	alt, zero bool
	width     int
	precision int // -1: none
	verb      byte
	comma     bool
	percent   bool // printf-style: strings align right by default
}

// formatOne formats one value for both %-formatting and str.format specs.
func formatOne(spec fmtSpec, arg any) (string, error) {
	if u, ok := arg.(*undefined); ok {
		return "", u.err()
	}
	var body string
	switch spec.verb {
	case 's', 0:
		if spec.verb == 0 {
			if _, isNum := number(arg); isNum {
				if _, isBool := arg.(bool); !isBool {
					if _, isFloat := arg.(float64); isFloat && spec.precision >= 0 {
						spec.verb = 'g'
						return formatOne(spec, arg)
					}
					return formatNumber(spec, arg)
				}
			}
		}
		s, err := str(arg)
		if err != nil {
			return "", err
		}
		if spec.precision >= 0 {
			if rs := []rune(s); len(rs) > spec.precision {
				s = string(rs[:spec.precision])
			}
		}
		body = s
	case 'r':
		s, err := repr(arg)
		if err != nil {
			return "", err
		}
		body = s
	case 'a':
		body = pyval.ASCII(arg)
	case 'c':
		if i, ok := asInt(arg); ok {
			if i < 0 || i > unicode.MaxRune {
				return "", errors.New("%c arg not in range(0x110000)")
			}
			body = string(rune(i))
		} else if s, ok := arg.(string); ok && utf8.RuneCountInString(s) == 1 {
			body = s
		} else {
			return "", errors.New("%c requires int or char")
		}
	default:
		return formatNumber(spec, arg)
	}
	if spec.percent {
		return align(body, spec, '>'), nil
	}
	return align(body, spec, '<'), nil
}

func align(body string, spec fmtSpec, def byte) string {
	n := utf8.RuneCountInString(body)
	if spec.width <= n {
		return body
	}
	fill := " "
	if spec.fill != 0 {
		fill = string(spec.fill)
	}
	a := spec.align
	if a == 0 {
		a = def
	}
	total := spec.width - n
	switch a {
	case '<':
		return body + strings.Repeat(fill, total)
	case '^':
		return strings.Repeat(fill, total/2) + body + strings.Repeat(fill, total-total/2)
	}
	return strings.Repeat(fill, total) + body
}

func formatNumber(spec fmtSpec, arg any) (string, error) {
	f, ok := number(arg)
	if !ok {
		if s, isStr := arg.(string); isStr && spec.verb != 0 {
			return "", fmt.Errorf("%%%c format: a real number is required, not str (%q)", spec.verb, s)
		}
		return "", fmt.Errorf("%%%c format: a number is required, not %s", spec.verb, typeName(arg))
	}
	i, isInt := asInt(arg)
	var digits string
	neg := false
	switch spec.verb {
	case 'd', 'i', 'u', 0:
		if spec.verb == 0 && !isInt {
			digits = pyval.FloatRepr(math.Abs(f))
			neg = f < 0 || (f == 0 && math.Signbit(f))
			if spec.comma && !strings.ContainsAny(digits, "en") {
				intPart, frac, found := strings.Cut(digits, ".")
				digits = groupThousands(intPart)
				if found {
					digits += "." + frac
				}
			}
			break
		}
		if !isInt {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return "", errors.New("cannot convert float to integer")
			}
			if math.Abs(f) >= 1<<63 {
				// int(f) is a big integer in Python.
				bi, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
				neg = bi.Sign() < 0
				digits = new(big.Int).Abs(bi).String()
				if spec.comma {
					digits = groupThousands(digits)
				}
				break
			}
			i = int64(f)
		}
		neg = i < 0
		if neg {
			i = -i
		}
		digits = strconv.FormatInt(i, 10)
		if spec.comma {
			digits = groupThousands(digits)
		}
	case 'x', 'X', 'o', 'b':
		if !isInt {
			return "", fmt.Errorf("%%%c format: an integer is required, not float", spec.verb)
		}
		neg = i < 0
		if neg {
			i = -i
		}
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2}[spec.verb]
		digits = strconv.FormatInt(i, base)
		if spec.verb == 'X' {
			digits = strings.ToUpper(digits)
		}
		if spec.alt {
			digits = "0" + string(spec.verb) + digits
		}
	case 'f', 'F', 'e', 'E', 'g', 'G', '%', 'r':
		prec := spec.precision
		if prec < 0 {
			prec = 6
		}
		neg = f < 0 || (f == 0 && math.Signbit(f))
		a := math.Abs(f)
		switch spec.verb {
		case 'f', 'F':
			digits = strconv.FormatFloat(a, 'f', prec, 64)
			if spec.comma {
				intPart, frac, _ := strings.Cut(digits, ".")
				digits = groupThousands(intPart)
				if frac != "" {
					digits += "." + frac
				}
			}
		case '%':
			digits = strconv.FormatFloat(a*100, 'f', prec, 64) + "%"
		case 'e', 'E':
			digits = fixExponent(strconv.FormatFloat(a, 'e', prec, 64))
		case 'g', 'G':
			if prec == 0 {
				prec = 1
			}
			digits = pyGeneral(a, prec, spec.alt)
		case 'r':
			// str.format's float without a type but with a precision:
			// 'g' that keeps a digit after the point.
			if prec == 0 {
				prec = 1
			}
			digits = pyGeneralDot0(a, prec)
		}
		if spec.verb == 'E' || spec.verb == 'G' || spec.verb == 'F' {
			digits = strings.ToUpper(digits)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			digits = pyval.FloatRepr(a)
		}
	default:
		return "", fmt.Errorf("unsupported format character '%c'", spec.verb)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case spec.sign == '+':
		sign = "+"
	case spec.sign == ' ':
		sign = " "
	}
	if spec.zero && spec.align == 0 {
		// printf's 0 flag: zeros between the sign and the digits.
		spec.align, spec.fill = '=', '0'
	}
	if spec.align == '=' {
		w := spec.width - len(sign)
		fill := " "
		if spec.fill != 0 {
			fill = string(spec.fill)
		}
		if n := utf8.RuneCountInString(digits); n < w {
			digits = strings.Repeat(fill, w-n) + digits
		}
		return sign + digits, nil
	}
	return align(sign+digits, spec, '>'), nil
}

// fixExponent turns Go's e+5 style exponents into Python's two-digit e+05.
func fixExponent(s string) string {
	i := strings.IndexAny(s, "eE")
	if i < 0 || i+2 >= len(s) {
		return s
	}
	exp := s[i+2:]
	if len(exp) < 2 {
		exp = "0" + exp
	}
	return s[:i+2] + exp
}

// pyGeneralDot0 is Python's float formatting with a precision and no type
// ('{:.3}'): like 'g', but fixed notation keeps at least one digit after
// the point, and exponent notation starts one digit earlier.
func pyGeneralDot0(a float64, prec int) string {
	if a == 0 {
		return "0.0"
	}
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	_, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= prec-1 {
		mant, ex, _ := strings.Cut(e, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return fixExponent(mant + "e" + ex)
	}
	s := strconv.FormatFloat(a, 'f', prec-1-exp, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyGeneral is Python's %g / {:g}.
func pyGeneral(a float64, prec int, alt bool) string {
	if a == 0 {
		if alt {
			return "0." + strings.Repeat("0", prec-1)
		}
		return "0"
	}
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	_, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	var s string
	if exp < -4 || exp >= prec {
		s = e
		if !alt {
			mant, ex, _ := strings.Cut(s, "e")
			if strings.Contains(mant, ".") {
				mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			}
			s = mant + "e" + ex
		}
		return fixExponent(s)
	}
	s = strconv.FormatFloat(a, 'f', prec-1-exp, 64)
	if !alt && strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func groupThousands(d string) string {
	if len(d) <= 3 {
		return d
	}
	var b strings.Builder
	pre := len(d) % 3
	if pre > 0 {
		b.WriteString(d[:pre])
	}
	for i := pre; i < len(d); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d[i : i+3])
	}
	return b.String()
}

// strFormat is Python's str.format with positional and keyword fields,
// attribute/index lookups and the common format-spec mini-language.
func strFormat(format string, args []any, kwargs map[string]any) (string, error) {
	var b strings.Builder
	auto := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '}' {
			if i+1 < len(format) && format[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		end := strings.IndexByte(format[i:], '}')
		if end < 0 {
			return "", errors.New("Single '{' encountered in format string")
		}
		field := format[i+1 : i+end]
		i += end
		name, specStr, _ := strings.Cut(field, ":")
		conv := byte(0)
		if k := strings.IndexByte(name, '!'); k >= 0 {
			if k+1 < len(name) {
				conv = name[k+1]
			}
			name = name[:k]
		}
		base := name
		rest := ""
		if k := strings.IndexAny(name, ".["); k >= 0 {
			base, rest = name[:k], name[k:]
		}
		var v any
		switch {
		case base == "":
			if auto >= len(args) {
				return "", fmt.Errorf("Replacement index %d out of range for positional args tuple", auto)
			}
			v = args[auto]
			auto++
		case base[0] >= '0' && base[0] <= '9':
			n, err := strconv.Atoi(base)
			if err != nil || n >= len(args) {
				return "", fmt.Errorf("Replacement index %s out of range for positional args tuple", base)
			}
			v = args[n]
		default:
			var ok bool
			if v, ok = kwargs[base]; !ok {
				return "", fmt.Errorf("KeyError: '%s'", base)
			}
		}
		for rest != "" {
			var err error
			if rest[0] == '.' {
				k := strings.IndexAny(rest[1:], ".[")
				attr := rest[1:]
				if k >= 0 {
					attr, rest = rest[1:k+1], rest[k+1:]
				} else {
					rest = ""
				}
				v, err = getAttr(nil, v, attr)
			} else {
				k := strings.IndexByte(rest, ']')
				if k < 0 {
					return "", errors.New("Missing ']' in format string")
				}
				key := rest[1:k]
				rest = rest[k+1:]
				if n, e := strconv.Atoi(key); e == nil {
					v, err = getItem(nil, v, int64(n))
				} else {
					v, err = getItem(nil, v, key)
				}
			}
			if err != nil {
				return "", err
			}
		}
		switch conv {
		case 'r':
			s, err := repr(v)
			if err != nil {
				return "", err
			}
			v = s
		case 'a':
			v = pyval.ASCII(v)
		case 's':
			s, err := str(v)
			if err != nil {
				return "", err
			}
			v = s
		}
		s, err := formatValue(specStr, v)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// formatValue is Python's format(v, spec) for str.format fields.
func formatValue(specStr string, v any) (string, error) {
	if u, ok := v.(*undefined); ok {
		return "", u.err()
	}
	if specStr == "" {
		return str(v)
	}
	spec, err := parseFormatSpec(specStr)
	if err != nil {
		return "", err
	}
	if b, ok := v.(bool); ok {
		v = boolToInt(b) // bool formats as int with a non-empty spec
	}
	switch x := v.(type) {
	case string:
		switch {
		case spec.sign != 0:
			return "", errors.New("Sign not allowed in string format specifier")
		case spec.alt:
			return "", errors.New("Alternate form (#) not allowed in string format specifier")
		case spec.comma:
			return "", errors.New("Cannot specify ',' with 's'.")
		case spec.align == '=':
			return "", errors.New("'=' alignment not allowed in string format specifier")
		case spec.verb != 0 && spec.verb != 's':
			return "", fmt.Errorf("Unknown format code '%c' for object of type 'str'", spec.verb)
		}
		if spec.zero && spec.fill == 0 {
			spec.fill = '0'
		}
		if spec.precision >= 0 {
			if rs := []rune(x); len(rs) > spec.precision {
				x = string(rs[:spec.precision])
			}
		}
		return align(x, spec, '<'), nil
	case int64:
		switch spec.verb {
		case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
			if spec.precision >= 0 {
				return "", errors.New("Precision not allowed in integer format specifier")
			}
			if spec.verb == 0 || spec.verb == 'n' {
				spec.verb = 'd'
			}
			if spec.verb == 'c' {
				if x < 0 || x > unicode.MaxRune {
					return "", errors.New("%c arg not in range(0x110000)")
				}
				zeroFill(&spec)
				return align(string(rune(x)), spec, '>'), nil
			}
		case 'e', 'E', 'f', 'F', 'g', 'G', '%':
			v = float64(x)
		default:
			return "", fmt.Errorf("Unknown format code '%c' for object of type 'int'", spec.verb)
		}
	case float64:
		switch spec.verb {
		case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		case 'n':
			spec.verb = 'g'
		case 0:
			if spec.precision >= 0 {
				spec.verb = 'r'
			}
		default:
			return "", fmt.Errorf("Unknown format code '%c' for object of type 'float'", spec.verb)
		}
	default:
		return "", fmt.Errorf("unsupported format string passed to %s.__format__", typeName(v))
	}
	zeroFill(&spec)
	return formatNumber(spec, v)
}

// zeroFill applies a 0 before the width for numbers: fill with zeros, and
// put them after the sign unless an alignment is given.
func zeroFill(spec *fmtSpec) {
	if spec.zero {
		if spec.fill == 0 {
			spec.fill = '0'
		}
		if spec.align == 0 {
			spec.align = '='
		}
		spec.zero = false
	}
}

func parseFormatSpec(s string) (fmtSpec, error) {
	spec := fmtSpec{precision: -1}
	rs := []rune(s)
	i := 0
	isAlign := func(r rune) bool { return r == '<' || r == '>' || r == '^' || r == '=' }
	if len(rs) >= 2 && isAlign(rs[1]) {
		spec.fill, spec.align = rs[0], byte(rs[1])
		i = 2
	} else if len(rs) >= 1 && isAlign(rs[0]) {
		spec.align = byte(rs[0])
		i = 1
	}
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-' || rs[i] == ' ') {
		spec.sign = byte(rs[i])
		i++
	}
	if i < len(rs) && rs[i] == '#' {
		spec.alt = true
		i++
	}
	if i < len(rs) && rs[i] == '0' {
		spec.zero = true
		i++
	}
	for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
		spec.width = spec.width*10 + int(rs[i]-'0')
	}
	if i < len(rs) && rs[i] == ',' {
		spec.comma = true
		i++
	}
	if i < len(rs) && rs[i] == '.' {
		i++
		spec.precision = 0
		for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
			spec.precision = spec.precision*10 + int(rs[i]-'0')
		}
	}
	if i < len(rs) {
		spec.verb = byte(rs[i])
		i++
	}
	if i != len(rs) {
		return spec, fmt.Errorf("Invalid format specifier '%s'", s)
	}
	return spec, nil
}
