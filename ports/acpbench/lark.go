package acpbench

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyre"
)

// A Lark LALR(1) parser, as Lark 1.1.5 runs one built from acp_grammar.lark
// (tables in lark_tables_gen.go, from testdata/gen_tables.py) with its
// contextual lexer, and with ACPGrammarParser's on_error handler: Lark's
// LALR_Parser.parse error loop, which skips a character the lexer cannot
// read, drops a token the parser cannot take, and at the end of the input
// lets the handler feed every terminal the parser expects (but WS) once.

type larkTable struct {
	start, end int
	terminals  map[string]larkTerminal
	rules      []larkRule
	states     []map[string]larkAction
	lexers     []larkLexer
	root       larkLexer

	once sync.Once
	res  map[string]*pyre.Regexp
}

type larkTerminal struct {
	pattern string // the regexp Lark matches (to_regexp)
	value   string // pattern.value: the text of a token the handler feeds
}

type larkRule struct {
	origin    string
	expansion []string
	filterOut []int // positions of anonymous string tokens, left out of trees
}

type larkAction struct {
	shift bool
	arg   int // the state shifted to, or the rule reduced
}

// larkLexer is one BasicLexer: its terminals in the order its alternation
// tries them, and the "unless" callbacks retyping a regexp terminal's match
// that is one of these strings in full.
type larkLexer struct {
	terms  []string
	unless map[string][]string
}

type larkToken struct{ typ, value string }

type larkTree struct {
	data     string
	children []any // *larkTree or larkToken
}

func (t *larkTable) regexps() map[string]*pyre.Regexp {
	t.once.Do(func() {
		t.res = map[string]*pyre.Regexp{}
		for name, term := range t.terminals {
			t.res[name] = pyre.MustCompile(term.pattern)
			t.res[name+"$"] = pyre.MustCompile("(?:" + term.pattern + ")$")
		}
	})
	return t.res
}

// match is Scanner.match at the start of s: the first terminal whose
// pattern matches, with the unless retyping.
func (t *larkTable) match(lx larkLexer, s string) (larkToken, bool) {
	res := t.regexps()
	for _, name := range lx.terms {
		m := res[name].Match(s)
		if m == nil {
			continue
		}
		tok := larkToken{name, m.Group(0)}
		for _, u := range lx.unless[name] {
			if res[u+"$"].Match(tok.value) != nil {
				tok.typ = u
				break
			}
		}
		return tok, true
	}
	return larkToken{}, false
}

// Errors of the parse, as Lark's exceptions.
type (
	unexpectedChars struct{}
	unexpectedToken struct {
		tok      larkToken
		expected []string
	}
)

func (unexpectedChars) Error() string { return "UnexpectedCharacters" }
func (e unexpectedToken) Error() string {
	return "UnexpectedToken " + e.tok.typ
}

// errAbort is an exception raised out of the error handler (a token it fed
// that the parser cannot take): ACPGrammarParser.parse returns None.
var errAbort = errors.New("lark: parse aborted")

type larkParser struct {
	t      *larkTable
	text   string
	pos    int // byte offset in text
	stack  []int
	values []any
}

// feed is ParserState.feed_token: reduce as the table says, then shift
// (or, at the end, accept). The stacks keep the reductions done before an
// error.
func (p *larkParser) feed(tok larkToken, isEnd bool) (any, bool, error) {
	for {
		state := p.stack[len(p.stack)-1]
		act, ok := p.t.states[state][tok.typ]
		if !ok {
			return nil, false, unexpectedToken{tok, p.expected(state)}
		}
		if act.shift {
			p.stack = append(p.stack, act.arg)
			p.values = append(p.values, tok)
			return nil, false, nil
		}
		r := p.t.rules[act.arg]
		n := len(r.expansion)
		kids := append([]any(nil), p.values[len(p.values)-n:]...)
		p.stack = p.stack[:len(p.stack)-n]
		p.values = p.values[:len(p.values)-n]
		goTo := p.t.states[p.stack[len(p.stack)-1]][r.origin]
		p.stack = append(p.stack, goTo.arg)
		p.values = append(p.values, p.t.build(r, kids))
		if isEnd && p.stack[len(p.stack)-1] == p.t.end {
			return p.values[len(p.values)-1], true, nil
		}
	}
}

// expected is UnexpectedToken.expected: the terminals the state has an
// action for (its upper-case keys).
func (p *larkParser) expected(state int) []string {
	var out []string
	for k := range p.t.states[state] {
		if strings.ToUpper(k) == k && strings.ToLower(k) != k {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// build is the parse-tree builder's callback for rule r: named tokens and
// subtrees as children, rules whose name starts with "_" inlined.
func (t *larkTable) build(r larkRule, kids []any) *larkTree {
	tree := &larkTree{data: r.origin}
	for i, k := range kids {
		skip := false
		for _, f := range r.filterOut {
			skip = skip || f == i
		}
		if skip {
			continue
		}
		if sub, ok := k.(*larkTree); ok && strings.HasPrefix(sub.data, "_") {
			tree.children = append(tree.children, sub.children...)
			continue
		}
		tree.children = append(tree.children, k)
	}
	return tree
}

// run is parse_from_state: lex with the current state's lexer and feed
// until the end, then feed $END.
func (p *larkParser) run() (any, error) {
	for p.pos < len(p.text) {
		state := p.stack[len(p.stack)-1]
		tok, ok := p.t.match(p.t.lexers[state], p.text[p.pos:])
		if !ok {
			// ContextualLexer: the root lexer's token, read and dropped,
			// is an UnexpectedToken; else UnexpectedCharacters.
			if rt, ok := p.t.match(p.t.root, p.text[p.pos:]); ok {
				p.pos += len(rt.value)
				return nil, unexpectedToken{rt, nil}
			}
			return nil, unexpectedChars{}
		}
		p.pos += len(tok.value)
		if _, _, err := p.feed(tok, false); err != nil {
			return nil, err
		}
	}
	v, _, err := p.feed(larkToken{typ: "$END"}, true)
	return v, err
}

// parse is Lark.parse(text, on_error=ignore_errors) for the table's start
// rule: the tree, or errAbort where Lark raises.
func (t *larkTable) parse(text string) (*larkTree, error) {
	p := &larkParser{t: t, text: text, stack: []int{t.start}}
	v, err := p.run()
	for err != nil {
		switch e := err.(type) {
		case unexpectedChars:
			// The handler leaves the position: skip one character.
			_, n := utf8.DecodeRuneInString(p.text[p.pos:])
			p.pos += n
		case unexpectedToken:
			if e.tok.typ == "$END" {
				for _, x := range e.expected {
					if x == "WS" {
						continue
					}
					if _, _, ferr := p.feed(larkToken{x, t.terminals[x].value}, false); ferr != nil {
						return nil, errAbort
					}
				}
			}
		}
		var err2 error
		v, err2 = p.run()
		if err2 == nil {
			break
		}
		if e, ok := err.(unexpectedToken); ok && e.tok.typ == "$END" {
			if e2, ok := err2.(unexpectedToken); ok && e2.tok.typ == "$END" {
				return nil, errAbort // Lark's guard against an endless loop
			}
		}
		err = err2
	}
	tree, ok := v.(*larkTree)
	if !ok {
		return nil, errAbort
	}
	return tree, nil
}

// topdown is Tree.iter_subtrees_topdown: the subtrees in pre-order.
func (tr *larkTree) topdown(fn func(*larkTree)) {
	fn(tr)
	for _, c := range tr.children {
		if sub, ok := c.(*larkTree); ok {
			sub.topdown(fn)
		}
	}
}
