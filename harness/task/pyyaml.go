package task

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// lm-eval reads task files with PyYAML, which implements YAML 1.1; yaml.v3
// implements YAML 1.2. This file makes lmeval read every scalar as PyYAML's
// SafeLoader resolver and constructors do (lm-eval's loader derives from
// CSafeLoader, libyaml's scanner with PyYAML's resolver):
//
//   - plain scalars resolve with YAML 1.1's implicit resolvers: yes/no/on/off
//     (any of three casings) are booleans, 017 is octal, 0b101 binary, 1:30
//     sexagesimal, underscores are allowed in numbers, a float needs a dot
//     (1e3 and 0o17 stay strings) and a signed exponent, 08 stays a string;
//   - `=` (YAML 1.1's value key) has no constructor in PyYAML: an error;
//   - a double-quoted scalar may hold `\/` (libyaml reads it as `/`, yaml.v3
//     refuses it) but not `\'` (yaml.v3 accepts it, libyaml refuses it).

// PyYAML's implicit resolvers (yaml/resolver.py), tried in this order.
var (
	pyBoolRe  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	pyFloatRe = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	pyIntRe   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	pyNullRe  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	pyTimeRe  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
)

// pyResolve gives PyYAML's implicit tag for a plain scalar, as its
// Resolver.resolve does (the first resolver registered for the first
// character that matches wins).
func pyResolve(v string) string {
	first := byte(0)
	if v != "" {
		first = v[0]
	}
	in := func(set string) bool {
		return v == "" && strings.Contains(set, "\x00") || v != "" && strings.IndexByte(set, first) >= 0
	}
	switch {
	case in("yYnNtTfFoO") && pyBoolRe.MatchString(v):
		return "!!bool"
	case in("-+0123456789.") && pyFloatRe.MatchString(v):
		return "!!float"
	case in("-+0123456789") && pyIntRe.MatchString(v):
		return "!!int"
	case in("<") && v == "<<":
		return "!!merge"
	case in("~nN\x00") && pyNullRe.MatchString(v):
		return "!!null"
	case in("0123456789") && pyTimeRe.MatchString(v):
		return "!!timestamp"
	case in("=") && v == "=":
		return "!!value"
	}
	return "!!str"
}

// pyConstruct builds the Python value of a scalar with a resolved (or
// explicit) standard tag, as PyYAML's SafeConstructor does. A timestamp,
// which Python makes a datetime.date or datetime.datetime, becomes the
// string Python's str() gives that value (no task file of lm-eval holds one).
func pyConstruct(tag, v string) (any, error) {
	switch tag {
	case "!!str", "!!binary":
		return v, nil
	case "!!timestamp":
		return pyTimestamp(v)
	case "!!null":
		return nil, nil
	case "!!bool":
		switch strings.ToLower(v) {
		case "yes", "true", "on":
			return true, nil
		case "no", "false", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a YAML 1.1 boolean", v)
	case "!!int":
		return pyConstructInt(v)
	case "!!float":
		return pyConstructFloat(v)
	case "!!value":
		return nil, fmt.Errorf("could not determine a constructor for the tag 'tag:yaml.org,2002:value' (%q)", v)
	}
	return nil, fmt.Errorf("unsupported tag %s for %q", tag, v)
}

var pyTimeParts = regexp.MustCompile(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$`)

// pyTimestamp is str() of SafeConstructor.construct_yaml_timestamp's value.
func pyTimestamp(v string) (any, error) {
	m := pyTimeParts.FindStringSubmatch(v)
	if m == nil {
		return nil, fmt.Errorf("timestamp %q", v)
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	s := fmt.Sprintf("%04d-%02d-%02d", atoi(m[1]), atoi(m[2]), atoi(m[3]))
	if m[4] == "" {
		return s, nil
	}
	s += fmt.Sprintf(" %02d:%02d:%02d", atoi(m[4]), atoi(m[5]), atoi(m[6]))
	if frac := m[7]; frac != "" {
		if len(frac) > 6 {
			frac = frac[:6]
		}
		frac += strings.Repeat("0", 6-len(frac))
		if frac != "000000" {
			s += "." + frac
		}
	}
	switch {
	case m[8] == "Z":
		s += "+00:00"
	case m[9] != "":
		s += fmt.Sprintf("%s%02d:%02d", m[9], atoi(m[10]), atoi(m[11]))
	}
	return s, nil
}

// pyConstructInt is SafeConstructor.construct_yaml_int.
func pyConstructInt(v string) (any, error) {
	s := strings.ReplaceAll(v, "_", "")
	sign := int64(1)
	if s != "" && s[0] == '-' {
		sign = -1
	}
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	var n int64
	var err error
	switch {
	case s == "0":
		return 0, nil
	case strings.HasPrefix(s, "0b"):
		n, err = strconv.ParseInt(s[2:], 2, 64)
	case strings.HasPrefix(s, "0x"):
		n, err = strconv.ParseInt(s[2:], 16, 64)
	case strings.HasPrefix(s, "0"):
		n, err = strconv.ParseInt(s, 8, 64)
	case strings.Contains(s, ":"):
		n, err = sexagesimal(s)
	default:
		n, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil {
		return nil, fmt.Errorf("integer %q: %w", v, err)
	}
	return int(sign * n), nil
}

func sexagesimal(s string) (int64, error) {
	var n int64
	for _, d := range strings.Split(s, ":") {
		x, err := strconv.ParseInt(d, 10, 64)
		if err != nil {
			return 0, err
		}
		n = n*60 + x
	}
	return n, nil
}

// pyConstructFloat is SafeConstructor.construct_yaml_float.
func pyConstructFloat(v string) (any, error) {
	s := strings.ToLower(strings.ReplaceAll(v, "_", ""))
	sign := 1.0
	if s != "" && s[0] == '-' {
		sign = -1
	}
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), nil
	case s == ".nan":
		return math.NaN(), nil
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		f := 0.0
		for i, d := range parts {
			var x float64
			var err error
			if i == len(parts)-1 {
				x, err = strconv.ParseFloat(d, 64)
			} else {
				var n int64
				n, err = strconv.ParseInt(d, 10, 64)
				x = float64(n)
			}
			if err != nil {
				return nil, fmt.Errorf("float %q: %w", v, err)
			}
			f = f*60 + x
		}
		return sign * f, nil
	}
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("float %q: %w", v, err)
	}
	return sign * f, nil
}

// pyScalar is the Python value PyYAML gives a scalar node.
func pyScalar(n *yaml.Node) (any, error) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	tag := n.Tag
	if n.Style&yaml.TaggedStyle == 0 {
		if quoted {
			return n.Value, nil
		}
		tag = pyResolve(n.Value)
	} else {
		tag = n.ShortTag()
	}
	return pyConstruct(tag, n.Value)
}

// slashEscape stands in for `\/` while yaml.v3 parses a file: it is a
// YAML 1.2 escape of the same character, which yaml.v3 knows.
const slashEscape = `\u002F`

// withSlashEscapes rewrites the `\/` escapes yaml.v3 refuses into
// slashEscape, or reports that it cannot do so unambiguously (the file
// already holds slashEscape).
func withSlashEscapes(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte(`\/`)) || bytes.Contains(data, []byte(slashEscape)) {
		return nil, false
	}
	return bytes.ReplaceAll(data, []byte(`\/`), []byte(slashEscape)), true
}

// pyEscapes are the characters libyaml accepts after a backslash in a
// double-quoted scalar.
const pyEscapes = "0abt\tnvfre \"/\\N_LPxuU\r\n"

// checkDoubleQuoted reports an escape that libyaml refuses in the
// double-quoted scalar that starts at byte offset off of data.
func checkDoubleQuoted(data []byte, off, line int) error {
	if off >= len(data) || data[off] != '"' {
		return nil
	}
	for i := off + 1; i < len(data); i++ {
		switch data[i] {
		case '"':
			return nil
		case '\\':
			if i+1 < len(data) {
				r, _ := utf8.DecodeRune(data[i+1:])
				if !strings.ContainsRune(pyEscapes, r) {
					return fmt.Errorf("line %d: found unknown escape character %q in a double-quoted scalar (PyYAML refuses it)", line, `\\`+string(r))
				}
			}
			i++
		}
	}
	return nil
}

// offset is the byte offset of line, col (1-based, col in characters).
func (c *converter) offset(line, col int) int {
	if c.lines == nil {
		c.lines = []int{0}
		for i, b := range c.data {
			if b == '\n' {
				c.lines = append(c.lines, i+1)
			}
		}
	}
	if line < 1 || line > len(c.lines) {
		return len(c.data)
	}
	off := c.lines[line-1]
	for k := 1; k < col && off < len(c.data); k++ {
		_, w := utf8.DecodeRune(c.data[off:])
		off += w
	}
	return off
}
