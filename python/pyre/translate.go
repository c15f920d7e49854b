package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// target is the dialect a Python pattern is rewritten into.
type target int

const (
	targetGo  target = iota // Go's regexp (RE2)
	targetNet               // regexp2 (.NET syntax, backtracking)
)

// flag bits, with the values of Python's re module constants.
const (
	flagI = 2   // IGNORECASE
	flagM = 8   // MULTILINE
	flagS = 16  // DOTALL
	flagX = 64  // VERBOSE
	flagA = 256 // ASCII
)

// translation is a Python pattern rewritten for one engine.
type translation struct {
	pattern string
	// backtrack reports that the pattern uses something RE2 cannot express
	// with Python's meaning (lookarounds, backreferences, Python's $, Unicode
	// \b, ...), so only the backtracking engine may run it.
	backtrack bool
	ngroups   int
	names     map[string]int
	flags     int
}

// Python's str.isspace() set, which is what \s matches in a str pattern.
const (
	spaceClassGo  = `\t\n\v\f\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
	spaceClassNet = `\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`
	// Python's \w in str patterns: str.isalnum() or '_'.
	wordClass = `\p{L}\p{N}_`
)

type translator struct {
	src     []rune
	i       int
	dialect Dialect
	tgt     target
	out     strings.Builder
	t       translation
	class   bool // inside [...]
	// negated shorthands of the current class, written last for regexp2,
	// which mishandles [^\W\d] but not [^\d\W]
	pendingNeg string
	// atom is where in out the last atom (what a quantifier repeats)
	// starts; groups holds where the open groups start.
	atom   int
	groups []int
}

func parseFlagLetters(s string) (int, error) {
	f := 0
	for _, c := range s {
		switch c {
		case 'i':
			f |= flagI
		case 'm':
			f |= flagM
		case 's':
			f |= flagS
		case 'x':
			f |= flagX
		case 'a':
			f |= flagA
		case 'u':
		case 'L':
			return 0, fmt.Errorf("flag L (locale) applies to bytes patterns only")
		default:
			return 0, fmt.Errorf("unknown flag %q", c)
		}
	}
	return f, nil
}

// leadingFlags reads the global inline flag groups "(?aimsx)" at the start of
// a pattern (Python 3.11 accepts them only there).
func leadingFlags(src []rune) (flags, skip int, err error) {
	i := 0
	for i+2 < len(src) && src[i] == '(' && src[i+1] == '?' {
		j := i + 2
		for j < len(src) && strings.ContainsRune("aiLmsux", src[j]) {
			j++
		}
		if j == i+2 || j >= len(src) || src[j] != ')' {
			break
		}
		f, err := parseFlagLetters(string(src[i+2 : j]))
		if err != nil {
			return 0, 0, err
		}
		flags |= f
		i = j + 1
	}
	return flags, i, nil
}

// translate rewrites a Python pattern for the given engine. Group names are
// removed (groups stay numbered left to right, as Python numbers them) and
// kept in the translation's table, because .NET numbers named groups after
// unnamed ones.
func translate(pattern string, flags int, d Dialect, tgt target) (translation, error) {
	tr := &translator{src: []rune(pattern), dialect: d, tgt: tgt}
	tr.t.names = map[string]int{}
	lf, skip, err := leadingFlags(tr.src)
	if err != nil {
		return translation{}, err
	}
	tr.t.flags = flags | lf
	tr.i = skip
	if err := tr.run(); err != nil {
		return translation{}, err
	}
	prefix := ""
	for _, f := range []struct {
		bit int
		c   string
	}{{flagI, "i"}, {flagM, "m"}, {flagS, "s"}} {
		// the regex module's (?i) is spelled out in the classes written
		if tr.t.flags&f.bit != 0 && !(d == RegexModule && f.bit == flagI) {
			prefix += f.c
		}
	}
	if prefix != "" {
		prefix = "(?" + prefix + ")"
	}
	tr.t.pattern = prefix + tr.out.String()
	return tr.t, nil
}

func (tr *translator) peek(k int) rune {
	if tr.i+k < len(tr.src) {
		return tr.src[tr.i+k]
	}
	return -1
}

func (tr *translator) errorf(format string, args ...any) error {
	return fmt.Errorf("at position %d: %s", tr.i, fmt.Sprintf(format, args...))
}

func (tr *translator) verbose() bool { return tr.t.flags&flagX != 0 }
func (tr *translator) ascii() bool   { return tr.t.flags&flagA != 0 }

func (tr *translator) run() error {
	for tr.i < len(tr.src) {
		c := tr.src[tr.i]
		if tr.class {
			if err := tr.classChar(c); err != nil {
				return err
			}
			continue
		}
		switch {
		case c == '\\':
			tr.atom = tr.out.Len()
			if err := tr.escape(); err != nil {
				return err
			}
		case c == '[':
			tr.atom = tr.out.Len()
			if tr.dialect != RegexModule {
				tr.openClass()
			} else if err := tr.regexmodClass(); err != nil {
				return err
			}
		case c == '(':
			start := tr.out.Len()
			if err := tr.group(); err != nil {
				return err
			}
			if tr.out.Len() > start {
				tr.groups = append(tr.groups, start)
			}
		case c == ')':
			if n := len(tr.groups); n > 0 {
				tr.atom, tr.groups = tr.groups[n-1], tr.groups[:n-1]
			}
			tr.out.WriteRune(c)
			tr.i++
		case c == '$':
			if tr.t.flags&flagM == 0 {
				// Python's $ also matches before a final newline; RE2 has
				// no zero-width way to say so, .NET's $ means the same.
				tr.t.backtrack = true
			}
			tr.out.WriteRune('$')
			tr.i++
		case c == '{':
			start := tr.out.Len()
			repeat, err := tr.brace()
			switch {
			case err != nil:
				return err
			case !repeat:
				tr.atom = start
			case tr.dialect == RegexModule:
				tr.regexmodQuantifier()
			}
		case c == '*' || c == '+' || c == '?':
			tr.out.WriteRune(c)
			tr.i++
			if tr.dialect == RegexModule {
				tr.regexmodQuantifier()
			} else if tr.peek(0) == '+' {
				return tr.errorf("possessive quantifiers are not supported")
			}
		case c == '.' || c == '|' || c == '^':
			tr.atom = tr.out.Len()
			tr.out.WriteRune(c)
			tr.i++
		case c == ']' || c == '}':
			tr.atom = tr.out.Len()
			tr.literal(c)
			tr.i++
		case tr.verbose() && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'):
			tr.i++
		case tr.verbose() && c == '#':
			for tr.i < len(tr.src) && tr.src[tr.i] != '\n' {
				tr.i++
			}
		default:
			tr.atom = tr.out.Len()
			tr.literal(c)
			tr.i++
		}
	}
	if tr.class {
		return fmt.Errorf("unterminated character set")
	}
	return nil
}

// literal writes one rune so that it is matched literally by both engines.
func (tr *translator) literal(r rune) {
	if tr.dialect == RegexModule && tr.regexmodLiteral(r) {
		return
	}
	switch {
	case r < 0x80 && strings.ContainsRune(`\.+*?()|[]{}^$#&-~`, r):
		tr.out.WriteRune('\\')
		tr.out.WriteRune(r)
	case r < 0x20 || r == 0x7f:
		tr.hexRune(r)
	default:
		tr.out.WriteRune(r)
	}
}

func (tr *translator) hexRune(r rune) {
	if tr.tgt == targetGo {
		fmt.Fprintf(&tr.out, `\x{%x}`, r)
	} else if r <= 0xffff {
		fmt.Fprintf(&tr.out, `\u%04x`, r)
	} else {
		tr.out.WriteRune(r)
	}
}

func (tr *translator) openClass() {
	tr.class = true
	tr.out.WriteRune('[')
	tr.i++
	if tr.peek(0) == '^' {
		tr.out.WriteRune('^')
		tr.i++
	}
	if tr.peek(0) == ']' { // a leading ] is literal in Python
		tr.out.WriteString(`\]`)
		tr.i++
	}
}

func (tr *translator) classChar(c rune) error {
	switch c {
	case ']':
		tr.class = false
		tr.out.WriteString(tr.pendingNeg)
		tr.pendingNeg = ""
		tr.out.WriteRune(']')
		tr.i++
	case '\\':
		return tr.escape()
	case '-':
		tr.out.WriteRune('-')
		tr.i++
	case '[', '^', '&', '~', '|':
		tr.out.WriteRune('\\')
		tr.out.WriteRune(c)
		tr.i++
	default:
		if c < 0x20 || c == 0x7f {
			tr.hexRune(c)
		} else {
			tr.out.WriteRune(c)
		}
		tr.i++
	}
	return nil
}

// brace handles '{': a repetition {m}, {m,}, {,n}, {m,n} (true), or a
// literal.
func (tr *translator) brace() (bool, error) {
	j := tr.i + 1
	readNum := func() (string, bool) {
		k := j
		for j < len(tr.src) && tr.src[j] >= '0' && tr.src[j] <= '9' {
			j++
		}
		return string(tr.src[k:j]), j > k
	}
	lo, hasLo := readNum()
	hi, hasHi, comma := "", false, false
	if j < len(tr.src) && tr.src[j] == ',' {
		comma = true
		j++
		hi, hasHi = readNum()
	}
	regexAny := tr.dialect == RegexModule && comma && !hasLo && !hasHi // the regex module's {,}
	if j >= len(tr.src) || tr.src[j] != '}' || (!hasLo && !hasHi && !regexAny) {
		if tr.dialect == RegexModule && fuzzyConstraint.MatchString(string(tr.src[tr.i+1:])) {
			return false, tr.errorf("fuzzy matching of the regex module is not supported")
		}
		tr.literal('{')
		tr.i++
		return false, nil
	}
	if !hasLo {
		lo = "0"
	}
	for _, n := range []string{lo, hi} {
		if v, err := strconv.Atoi(n); err == nil && v > 1000 {
			tr.t.backtrack = true // RE2 caps repetitions at 1000
		}
	}
	tr.out.WriteString("{" + lo)
	if comma {
		tr.out.WriteString("," + hi)
	}
	tr.out.WriteString("}")
	tr.i = j + 1
	return true, nil
}

func (tr *translator) readName(end rune) (string, error) {
	j := tr.i
	for j < len(tr.src) && tr.src[j] != end {
		j++
	}
	if j >= len(tr.src) {
		return "", tr.errorf("missing %q after group name", end)
	}
	name := string(tr.src[tr.i:j])
	tr.i = j + 1
	return name, nil
}

func (tr *translator) group() error {
	if tr.peek(1) != '?' {
		tr.t.ngroups++
		tr.out.WriteRune('(')
		tr.i++
		return nil
	}
	rest := string(tr.src[tr.i+2 : min(len(tr.src), tr.i+4)])
	switch {
	case strings.HasPrefix(rest, ":"):
		tr.out.WriteString("(?:")
		tr.i += 3
	case strings.HasPrefix(rest, "P<"), tr.dialect == RegexModule && strings.HasPrefix(rest, "<") &&
		!strings.HasPrefix(rest, "<=") && !strings.HasPrefix(rest, "<!"):
		// (?P<name>...), and the regex module's (?<name>...)
		tr.i += 3
		if rest[0] == 'P' {
			tr.i++
		}
		name, err := tr.readName('>')
		if err != nil {
			return err
		}
		if _, dup := tr.t.names[name]; dup {
			return tr.errorf("redefinition of group name %q", name)
		}
		tr.t.ngroups++
		tr.t.names[name] = tr.t.ngroups
		tr.out.WriteRune('(')
	case strings.HasPrefix(rest, "P="):
		tr.i += 4
		name, err := tr.readName(')')
		if err != nil {
			return err
		}
		n, ok := tr.t.names[name]
		if !ok {
			return tr.errorf("unknown group name %q", name)
		}
		return tr.backref(n)
	case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"),
		strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"),
		strings.HasPrefix(rest, ">"):
		tr.t.backtrack = true
		n := 3
		if rest[0] == '<' {
			n = 4
		}
		tr.out.WriteString(string(tr.src[tr.i : tr.i+n]))
		tr.i += n
	case strings.HasPrefix(rest, "#"):
		for tr.i < len(tr.src) && tr.src[tr.i] != ')' {
			tr.i++
		}
		if tr.i >= len(tr.src) {
			return fmt.Errorf("missing ), unterminated comment")
		}
		tr.i++
	case strings.HasPrefix(rest, "("):
		tr.i += 3
		ref, err := tr.readName(')')
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(ref)
		if err != nil {
			var ok bool
			if n, ok = tr.t.names[ref]; !ok {
				return tr.errorf("unknown group name %q in conditional", ref)
			}
		}
		tr.t.backtrack = true
		fmt.Fprintf(&tr.out, "(?(%d)", n)
	default:
		// scoped flags (?aimsx-imsx:...) or misplaced global flags
		j := tr.i + 2
		for j < len(tr.src) && strings.ContainsRune("aiLmsux-", tr.src[j]) {
			j++
		}
		if j >= len(tr.src) {
			return tr.errorf("missing ), unterminated subpattern")
		}
		spec := string(tr.src[tr.i+2 : j])
		if tr.src[j] == ')' {
			return tr.errorf("global flags not at the start of the expression")
		}
		if tr.src[j] != ':' {
			return tr.errorf("unknown extension ?%c", tr.src[tr.i+2])
		}
		on, off, _ := strings.Cut(spec, "-")
		for _, part := range []string{on, off} {
			if _, err := parseFlagLetters(part); err != nil {
				return tr.errorf("%v", err)
			}
			if strings.ContainsAny(part, "axuL") {
				return tr.errorf("scoped flags %q are not supported (only i, m, s)", part)
			}
			if tr.dialect == RegexModule && strings.Contains(part, "i") {
				return tr.errorf("scoped flag i is not supported for the regex module (only m, s)")
			}
		}
		tr.out.WriteString("(?" + spec + ":")
		tr.i = j + 1
	}
	return nil
}

func (tr *translator) backref(n int) error {
	if tr.dialect == RegexModule && tr.t.flags&flagI != 0 {
		return tr.errorf("backreferences under IGNORECASE are not supported for the regex module")
	}
	tr.t.backtrack = true
	fmt.Fprintf(&tr.out, `(?:\%d)`, n)
	return nil
}

// hexEscape reads the digits of \xhh, \uhhhh or \Uhhhhhhhh.
func (tr *translator) hexEscape(c rune) (rune, error) {
	n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[c]
	if tr.i+n > len(tr.src) {
		return 0, tr.errorf("incomplete escape \\%c", c)
	}
	v, err := strconv.ParseUint(string(tr.src[tr.i:tr.i+n]), 16, 32)
	if err != nil || v > utf8.MaxRune {
		return 0, tr.errorf("bad escape \\%c%s", c, string(tr.src[tr.i:tr.i+n]))
	}
	tr.i += n
	return rune(v), nil
}

// escape handles a backslash sequence, in or out of a character class.
func (tr *translator) escape() error {
	c := tr.peek(1)
	if c < 0 {
		return tr.errorf("bad escape (end of pattern)")
	}
	tr.i += 2
	switch {
	case c >= '0' && c <= '9':
		return tr.digitEscape(c)
	case c == 'x' || c == 'u' || c == 'U':
		r, err := tr.hexEscape(c)
		if err != nil {
			return err
		}
		tr.literal(r)
		return nil
	}
	if tr.class {
		return tr.classEscape(c)
	}
	if tr.dialect == RegexModule {
		switch c {
		case 'b', 'B':
			tr.regexmodBoundary(c)
			return nil
		case 'd', 'D', 'w', 'W', 's', 'S':
			tr.writeSet(regexmodShorthand(c, tr.ascii()))
			return nil
		}
	}
	switch c {
	case 'A':
		tr.out.WriteString(`\A`)
	case 'Z':
		tr.out.WriteString(`\z`)
	case 'b', 'B':
		if !tr.ascii() {
			// Python's \b is Unicode-aware; RE2's is ASCII-only.
			tr.t.backtrack = true
			if tr.tgt == targetNet {
				// .NET's word characters include combining marks (Mn),
				// Python's (str.isalnum() or "_") do not: spell the
				// boundary out with Python's class.
				w := "[" + wordClass + "]"
				if c == 'b' {
					tr.out.WriteString("(?:(?<=" + w + ")(?!" + w + ")|(?<!" + w + ")(?=" + w + "))")
				} else {
					tr.out.WriteString("(?:(?<=" + w + ")(?=" + w + ")|(?<!" + w + ")(?!" + w + "))")
				}
				return nil
			}
		}
		tr.out.WriteRune('\\')
		tr.out.WriteRune(c)
	case 'd', 'D', 'w', 'W', 's', 'S':
		tr.out.WriteString(tr.shorthand(c, false))
	default:
		return tr.simpleEscape(c)
	}
	return nil
}

func (tr *translator) classEscape(c rune) error {
	switch c {
	case 'b':
		tr.hexRune('\b')
	case 'd', 'D', 'w', 'W', 's', 'S':
		tr.out.WriteString(tr.shorthand(c, true))
	default:
		return tr.simpleEscape(c)
	}
	return nil
}

// shorthand spells \d \w \s and their negations with Python's meaning.
func (tr *translator) shorthand(c rune, inClass bool) string {
	wrap := func(body string, neg bool) string {
		if inClass {
			return body
		}
		if neg {
			return "[^" + body + "]"
		}
		return "[" + body + "]"
	}
	space := spaceClassGo
	if tr.tgt == targetNet {
		space = spaceClassNet
	}
	if tr.ascii() {
		space = `\t\n\v\f\r `
	}
	switch c {
	case 'd':
		if tr.ascii() {
			return wrap("0-9", false)
		}
		if tr.tgt == targetGo {
			return `\p{Nd}`
		}
		return `\d` // .NET's \d is Unicode Nd, as Python's
	case 'D':
		if tr.ascii() {
			if inClass {
				return tr.negInClass(`\D`)
			}
			return "[^0-9]"
		}
		if tr.tgt == targetGo {
			return `\P{Nd}`
		}
		return `\D`
	case 'w':
		if tr.ascii() {
			return wrap("0-9A-Za-z_", false)
		}
		return wrap(wordClass, false)
	case 'W':
		if inClass {
			return tr.negInClass(`\W`)
		}
		if tr.ascii() {
			return "[^0-9A-Za-z_]"
		}
		return "[^" + wordClass + "]"
	case 's':
		return wrap(space, false)
	default: // 'S'
		if inClass {
			return tr.negInClass(`\S`)
		}
		return "[^" + space + "]"
	}
}

// negInClass handles a negated shorthand inside a character class, which
// RE2 cannot combine with other members when its meaning differs from
// Python's: the pattern goes to the backtracking engine, whose own class is
// used (documented approximation).
func (tr *translator) negInClass(esc string) string {
	if tr.tgt == targetGo && !(tr.ascii() && (esc == `\D` || esc == `\W`)) {
		tr.t.backtrack = true
	}
	if tr.tgt == targetNet {
		tr.pendingNeg += esc
		return ""
	}
	return esc
}

func (tr *translator) simpleEscape(c rune) error {
	switch c {
	case 'n', 't', 'r', 'f', 'v', 'a':
		tr.out.WriteRune('\\')
		tr.out.WriteRune(c)
		return nil
	}
	if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		if tr.dialect == RegexModule {
			return tr.regexmodBadEscape(c)
		}
		return tr.errorf("bad escape \\%c", c)
	}
	tr.literal(c)
	return nil
}

// octalEscape reads \0oo or \ooo (three digits, first 0-3) after its first
// digit c, if it is one.
func (tr *translator) octalEscape(c rune) (rune, bool) {
	isOct := func(r rune) bool { return r >= '0' && r <= '7' }
	if c == '0' {
		v := 0
		for k := 0; k < 2 && isOct(tr.peek(0)); k++ {
			v = v*8 + int(tr.peek(0)-'0')
			tr.i++
		}
		return rune(v), true
	}
	if isOct(c) && isOct(tr.peek(0)) && isOct(tr.peek(1)) && c <= '3' {
		v := int(c-'0')*64 + int(tr.peek(0)-'0')*8 + int(tr.peek(1)-'0')
		tr.i += 2
		return rune(v), true
	}
	return 0, false
}

// digitEscape: \0oo octal, \ooo octal (three digits, first 0-3), else a
// backreference \N or \NN (outside classes).
func (tr *translator) digitEscape(c rune) error {
	if r, ok := tr.octalEscape(c); ok {
		tr.literal(r)
		return nil
	}
	if tr.class {
		return tr.errorf("bad escape \\%c in character set", c)
	}
	n := int(c - '0')
	if d := tr.peek(0); d >= '0' && d <= '9' {
		n = n*10 + int(d-'0')
		tr.i++
	}
	if n > tr.t.ngroups {
		return tr.errorf("invalid group reference %d", n)
	}
	return tr.backref(n)
}
