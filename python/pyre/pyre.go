// Package pyre compiles regular expressions written for Python's re module
// so that they mean in Go what they mean in Python.
//
// Task files of lm-evaluation-harness carry Python patterns (filters,
// metric options). A pattern is rewritten for Go's regexp (RE2) when RE2 can
// express it with Python's meaning, which is the fast path; otherwise it runs
// on github.com/dlclark/regexp2, a backtracking engine with lookarounds and
// backreferences. Python 3 str-pattern semantics are kept: \d is any Unicode
// decimal digit, \w is a Unicode letter, number or underscore, \s is
// str.isspace(), $ also matches before a final newline, \Z is the absolute
// end, and findall/sub follow Python 3.7+'s rules for empty matches.
//
// Compile, CompileFlags and MustCompile follow the standard library's re.
// Patterns that Python code compiles with the third-party regex module
// (nltk >= 3.10.3 does, for its tokenizers) are compiled with
// RegexModule.Compile (or RegexModule.MustCompile): the same syntax, with
// that module's \w, \s, \d, \b and case rules from its own Unicode tables,
// possessive quantifiers and atomic groups; see Dialect.
package pyre

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
)

// Flags of Python's re module, for CompileFlags.
const (
	IGNORECASE = flagI
	MULTILINE  = flagM
	DOTALL     = flagS
	VERBOSE    = flagX
	ASCII      = flagA
)

// Regexp is a compiled Python pattern. It is safe for concurrent use.
type Regexp struct {
	src     string
	flags   int // effective flags, inline ones included
	ngroups int
	names   map[string]int

	re2  *regexp.Regexp  // nil when the backtracking engine is used
	net  *regexp2.Regexp // set when re2 is nil
	body string          // translated pattern, for the anchored variants

	anchorOnce       sync.Once
	anchored, full   *regexp.Regexp
	anchoredN, fullN *regexp2.Regexp
	anchorErr        error
}

// Compile parses a Python regular expression.
func Compile(pattern string) (*Regexp, error) { return CompileFlags(pattern, 0) }

// MustCompile is Compile that panics on error, for patterns in code.
func MustCompile(pattern string) *Regexp {
	re, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return re
}

// CompileFlags is Compile with re module flags (IGNORECASE|MULTILINE|...).
func CompileFlags(pattern string, flags int) (*Regexp, error) { return Re.CompileFlags(pattern, flags) }

// compile translates pattern for Go's regexp when it can say the same
// there, else for the backtracking engine (always, with backtrack).
func compile(pattern string, flags int, d Dialect, backtrack bool) (*Regexp, error) {
	wrap := func(err error) error {
		if d == RegexModule {
			return fmt.Errorf("pyre: compiling %q for the regex module: %w", pattern, err)
		}
		return fmt.Errorf("pyre: compiling %q: %w", pattern, err)
	}
	gt, err := translate(pattern, flags, d, targetGo)
	if err != nil {
		return nil, wrap(err)
	}
	r := &Regexp{src: pattern, flags: gt.flags, ngroups: gt.ngroups, names: gt.names}
	if !gt.backtrack && !backtrack {
		// Patterns that can match the empty string go to the backtracking
		// engine too: Go's FindAll drops an empty match right after a
		// non-empty one, Python's findall keeps it.
		if parsed, err := syntax.Parse(gt.pattern, syntax.Perl); err == nil && minWidth(parsed) > 0 {
			if re, err := regexp.Compile(gt.pattern); err == nil {
				r.re2, r.body = re, gt.pattern
				return r, nil
			}
		}
	}
	nt, err := translate(pattern, flags, d, targetNet)
	if err != nil {
		return nil, wrap(err)
	}
	net, err := regexp2.Compile(nt.pattern, regexp2.None)
	if err != nil {
		return nil, wrap(err)
	}
	r.net, r.body = net, nt.pattern
	return r, nil
}

// minWidth is the length in runes of the shortest string re can match.
func minWidth(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minWidth(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minWidth(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minWidth(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if w := minWidth(s); n < 0 || w < n {
				n = w
			}
		}
		return max(n, 0)
	}
	return 0
}

// String returns the Python source pattern.
func (r *Regexp) String() string { return r.src }

// Flags returns the effective flags (those given and the pattern's
// leading inline flags), as Python's re.flags minus UNICODE.
func (r *Regexp) Flags() int { return r.flags }

// NumGroups is the number of capturing groups (Python's re.groups).
func (r *Regexp) NumGroups() int { return r.ngroups }

// GroupIndex maps group names to numbers (Python's re.groupindex).
func (r *Regexp) GroupIndex() map[string]int {
	m := make(map[string]int, len(r.names))
	for k, v := range r.names {
		m[k] = v
	}
	return m
}

// Backtracking reports whether the pattern runs on the backtracking engine.
func (r *Regexp) Backtracking() bool { return r.re2 == nil }

// Match is one match: spans of the whole match and of every group, as byte
// offsets into the subject; an unmatched group has span (-1, -1).
type Match struct {
	subject string
	spans   []int
	re      *Regexp
}

// Group returns group i's text ("" when the group did not take part).
func (m *Match) Group(i int) string {
	s, e := m.Span(i)
	if s < 0 {
		return ""
	}
	return m.subject[s:e]
}

// Matched reports whether group i took part in the match.
func (m *Match) Matched(i int) bool { s, _ := m.Span(i); return s >= 0 }

// Span returns group i's byte offsets, (-1, -1) when it did not take part.
func (m *Match) Span(i int) (int, int) {
	if i < 0 || 2*i+1 >= len(m.spans) {
		return -1, -1
	}
	return m.spans[2*i], m.spans[2*i+1]
}

// Named returns the text of the named group.
func (m *Match) Named(name string) string {
	i, ok := m.re.names[name]
	if !ok {
		return ""
	}
	return m.Group(i)
}

// Groups returns groups 1..n; unmatched groups are "" (Python's
// m.groups(default=”)).
func (m *Match) Groups() []string {
	g := make([]string, m.re.ngroups)
	for i := range g {
		g[i] = m.Group(i + 1)
	}
	return g
}

// Start and End are the span of the whole match.
func (m *Match) Start() int { return m.spans[0] }
func (m *Match) End() int   { return m.spans[1] }

func (r *Regexp) compileAnchored() error {
	r.anchorOnce.Do(func() {
		if r.re2 != nil {
			if r.anchored, r.anchorErr = regexp.Compile(`\A(?:` + r.body + `)`); r.anchorErr == nil {
				r.full, r.anchorErr = regexp.Compile(`\A(?:` + r.body + `)\z`)
			}
			return
		}
		if r.anchoredN, r.anchorErr = regexp2.Compile(`\A(?:`+r.body+`)`, regexp2.None); r.anchorErr == nil {
			r.fullN, r.anchorErr = regexp2.Compile(`\A(?:`+r.body+`)\z`, regexp2.None)
		}
	})
	return r.anchorErr
}

// Search finds the first match anywhere in s (re.search), nil if none.
func (r *Regexp) Search(s string) *Match {
	if r.re2 != nil {
		return r.goMatch(r.re2, s)
	}
	m, _ := r.netFind(r.net, s, runeOffsets(s), 0)
	return m
}

// Match matches at the start of s only (re.match), nil if none.
func (r *Regexp) Match(s string) *Match {
	if err := r.compileAnchored(); err != nil {
		return nil
	}
	if r.re2 != nil {
		return r.goMatch(r.anchored, s)
	}
	m, _ := r.netFind(r.anchoredN, s, runeOffsets(s), 0)
	return m
}

// FullMatch matches all of s (re.fullmatch), nil if not.
func (r *Regexp) FullMatch(s string) *Match {
	if err := r.compileAnchored(); err != nil {
		return nil
	}
	if r.re2 != nil {
		return r.goMatch(r.full, s)
	}
	m, _ := r.netFind(r.fullN, s, runeOffsets(s), 0)
	return m
}

func (r *Regexp) goMatch(re *regexp.Regexp, s string) *Match {
	loc := re.FindStringSubmatchIndex(s)
	if loc == nil {
		return nil
	}
	return &Match{subject: s, spans: loc, re: r}
}

// runeOffsets maps rune index to byte offset (one past the end included),
// as regexp2 reports positions in runes.
func runeOffsets(s string) []int {
	offs := make([]int, 0, len(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	return append(offs, len(s))
}

func (r *Regexp) netFind(re *regexp2.Regexp, s string, offs []int, startRune int) (*Match, int) {
	runes := []rune(s)
	m, err := re.FindRunesMatchStartingAt(runes, startRune)
	if err != nil || m == nil {
		return nil, 0
	}
	return r.netMatch(m, s, offs), m.Index + m.Length
}

func (r *Regexp) netMatch(m *regexp2.Match, s string, offs []int) *Match {
	groups := m.Groups()
	spans := make([]int, 2*(r.ngroups+1))
	for i := range r.ngroups + 1 {
		spans[2*i], spans[2*i+1] = -1, -1
		if i < len(groups) && len(groups[i].Captures) > 0 {
			g := groups[i]
			spans[2*i], spans[2*i+1] = offs[g.Index], offs[g.Index+g.Length]
		}
	}
	return &Match{subject: s, spans: spans, re: r}
}

// FindAll returns every non-overlapping match, left to right (re.finditer).
// As in Python 3.7+, an empty match may directly follow a non-empty one.
func (r *Regexp) FindAll(s string) []*Match {
	if r.re2 != nil {
		locs := r.re2.FindAllStringSubmatchIndex(s, -1)
		out := make([]*Match, len(locs))
		for i, loc := range locs {
			out[i] = &Match{subject: s, spans: loc, re: r}
		}
		return out
	}
	runes := []rune(s)
	offs := runeOffsets(s)
	var out []*Match
	pos := 0
	for pos <= len(runes) {
		m, err := r.net.FindRunesMatchStartingAt(runes, pos)
		if err != nil || m == nil {
			break
		}
		out = append(out, r.netMatch(m, s, offs))
		pos = m.Index + m.Length
		if m.Length == 0 {
			// Python then forbids an empty match at the same place; the
			// next match may still start there if it is non-empty, which
			// only patterns preferring "" over text at one position notice.
			pos++
		}
	}
	return out
}

// FindAllStrings is Python's re.findall: for a pattern without groups each
// element holds the whole match; with groups, each element holds every
// group's text (a 1-tuple for one group), unmatched groups as "".
func (r *Regexp) FindAllStrings(s string) [][]string {
	ms := r.FindAll(s)
	out := make([][]string, len(ms))
	for i, m := range ms {
		if r.ngroups == 0 {
			out[i] = []string{m.Group(0)}
		} else {
			out[i] = m.Groups()
		}
	}
	return out
}

// Sub is re.sub(pattern, repl, s, count): repl uses Python's template
// syntax (\1, \g<1>, \g<name>, \n, \\); count 0 replaces every match.
func (r *Regexp) Sub(repl, s string, count int) (string, error) {
	tmpl, err := r.parseTemplate(repl)
	if err != nil {
		return "", err
	}
	return r.SubFunc(s, count, func(m *Match) string {
		var b strings.Builder
		for _, p := range tmpl {
			if p.group >= 0 {
				b.WriteString(m.Group(p.group))
			} else {
				b.WriteString(p.lit)
			}
		}
		return b.String()
	}), nil
}

// SubFunc replaces matches by fn's result (re.sub with a function).
func (r *Regexp) SubFunc(s string, count int, fn func(*Match) string) string {
	var b strings.Builder
	last := 0
	for i, m := range r.FindAll(s) {
		if count > 0 && i >= count {
			break
		}
		b.WriteString(s[last:m.Start()])
		b.WriteString(fn(m))
		last = m.End()
	}
	b.WriteString(s[last:])
	return b.String()
}

type tmplPart struct {
	lit   string
	group int // -1 for literal text
}

func (r *Regexp) parseTemplate(repl string) ([]tmplPart, error) {
	var parts []tmplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, tmplPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("pyre: replacement %q: %s", repl, fmt.Sprintf(format, args...))
	}
	group := func(n int) error {
		if n > r.ngroups {
			return bad("invalid group reference %d", n)
		}
		flush()
		parts = append(parts, tmplPart{group: n})
		return nil
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' {
			lit.WriteByte(c)
			continue
		}
		if i+1 >= len(repl) {
			return nil, bad("bad escape (end of pattern)")
		}
		i++
		c = repl[i]
		switch {
		case c == 'g':
			if i+1 >= len(repl) || repl[i+1] != '<' {
				return nil, bad("missing <")
			}
			end := strings.IndexByte(repl[i+2:], '>')
			if end < 0 {
				return nil, bad("missing >, unterminated name")
			}
			name := repl[i+2 : i+2+end]
			i += 2 + end
			n, ok := r.names[name]
			if !ok {
				if _, err := fmt.Sscanf(name, "%d", &n); err != nil || fmt.Sprint(n) != name {
					return nil, bad("unknown group name %q", name)
				}
			}
			if err := group(n); err != nil {
				return nil, err
			}
		case c == '0':
			v := 0
			for k := 0; k < 2 && i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(repl[i]-'0')
			}
			lit.WriteRune(rune(v))
		case c >= '1' && c <= '9':
			n := int(c - '0')
			if i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9' {
				if c <= '3' && repl[i+1] <= '7' && i+2 < len(repl) && repl[i+2] >= '0' && repl[i+2] <= '7' {
					lit.WriteRune(rune(int(c-'0')*64 + int(repl[i+1]-'0')*8 + int(repl[i+2]-'0')))
					i += 2
					continue
				}
				n = n*10 + int(repl[i+1]-'0')
				i++
			}
			if err := group(n); err != nil {
				return nil, err
			}
		default:
			if esc, ok := templateEscapes[c]; ok {
				lit.WriteString(esc)
			} else if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return nil, bad("bad escape \\%c", c)
			} else {
				lit.WriteByte('\\') // Python keeps unknown non-letter escapes
				lit.WriteByte(c)
			}
		}
	}
	flush()
	return parts, nil
}

var templateEscapes = map[byte]string{
	'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v", '\\': "\\",
}

// Escape is Python's re.escape: a backslash before every character that is
// special in a pattern.
func Escape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < 0x80 && strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
