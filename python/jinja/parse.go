package jinja

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// The template structure ({{ }}, {% %} blocks, whitespace control) is parsed
// here on gonja's token stream (its lexer and its parser.Parser token
// cursor); expressions are parsed in expr.go. Parsing everything ourselves
// gives Jinja2's grammar exactly (gonja's own parser knows a conditional
// expression only at the top of {{ }}) and lets the renderer give Python's
// semantics to every node.

type node interface{}

type textNode struct{ text string }

type outputNode struct{ expr expr }

type ifNode struct {
	conds  []expr
	bodies [][]node // len(bodies) == len(conds) or len(conds)+1 (else)
}

type forNode struct {
	targets []string
	iter    expr
	filter  expr // optional `if` clause
	body    []node
	orElse  []node
}

type setNode struct {
	targets []string // one name, or several for tuple unpacking
	attr    string   // {% set ns.attr = ... %}
	value   expr     // nil for a block set
	body    []node
}

type macroNode struct {
	name     string
	params   []string
	defaults map[string]expr
	body     []node
}

type filterBlockNode struct {
	filters []*nodes.FilterCall
	body    []node
}

type withNode struct {
	names  []string
	values []expr
	body   []node
}

// expr is a gonja expression node, or one of the conditional expressions
// parsed here.
type expr = nodes.Node

type condExpr struct {
	cond, yes, no expr // no may be nil
}

func (c *condExpr) Position() *tokens.Token { return nil }
func (c *condExpr) String() string          { return "condExpr" }

type loopControlNode struct{ isBreak bool }

// syntax is what the environment's extensions add to the grammar.
type syntax struct {
	loopControls bool // {% break %}, {% continue %} (jinja2.ext.loopcontrols)
	generation   bool // {% generation %} (transformers' AssistantTracker)
}

type templateParser struct {
	p         *parser.Parser
	syntax    syntax
	loopDepth int
	// soft is set inside an if statement or a conditional expression
	// (and not inside a loop, macro or block within it): there, as in
	// Jinja2's compiler (Frame.soft_frame), an unknown filter or test is
	// an error only when it is evaluated.
	soft bool
	// unknown lists the unknown filters and tests met outside soft
	// scopes: Jinja2 refuses to compile such a template. A conditional
	// expression discovered after its first operand forgives those the
	// operand added.
	unknown []string
}

func parseTemplate(src string, cfg *config.Config, syn syntax) ([]node, error) {
	stream := tokens.LexAll(escapeBackslashes(src, cfg), cfg)
	tp := &templateParser{p: parser.NewParser("template", stream, cfg, nil, noControlStructures{}), syntax: syn}
	body, end, err := tp.parseBody()
	if err != nil {
		return nil, err
	}
	if end != "" {
		return nil, fmt.Errorf("unexpected '%s'", end)
	}
	if len(tp.unknown) > 0 {
		return nil, errors.New(tp.unknown[0])
	}
	return body, nil
}

// unknownName records a filter or test that does not exist.
func (tp *templateParser) unknownName(kind, name string) {
	if !tp.soft {
		tp.unknown = append(tp.unknown, fmt.Sprintf("no %s named '%s'", kind, name))
	}
}

// hard parses a loop, macro or block body, which Jinja2 compiles in a
// frame of its own, never soft.
func (tp *templateParser) hard(f func() error) error {
	soft := tp.soft
	tp.soft = false
	err := f()
	tp.soft = soft
	return err
}

// softly parses an if statement's parts or a conditional expression.
func (tp *templateParser) softly(f func() error) error {
	soft := tp.soft
	tp.soft = true
	err := f()
	tp.soft = soft
	return err
}

type noControlStructures struct{}

func (noControlStructures) Get(string) (parser.ControlStructureParser, bool) { return nil, false }

// parseBody parses nodes until EOF or a block tag named in stop; it returns
// that tag's name with the parser positioned after the name.
func (tp *templateParser) parseBody(stop ...string) ([]node, string, error) {
	p := tp.p
	var out []node
	for {
		t := p.Current()
		if t == nil || t.Type == tokens.EOF {
			if len(stop) > 0 {
				return nil, "", fmt.Errorf("unexpected end of template, expected %s", strings.Join(stop, " or "))
			}
			return out, "", nil
		}
		switch t.Type {
		case tokens.Error:
			return nil, "", fmt.Errorf("line %d: %s", t.Line, t.Val)
		case tokens.Data:
			text := t.Val
			if t.RemoveFirstLineReturn {
				text = strings.TrimPrefix(strings.TrimPrefix(text, "\r\n"), "\n")
			}
			if t.Trim {
				text = strings.TrimLeft(text, " \t\r\n")
			}
			if next := p.Peek(tokens.VariableBegin, tokens.CommentBegin, tokens.BlockBegin); next != nil && strings.HasSuffix(next.Val, "-") {
				text = strings.TrimRight(text, " \t\r\n")
			}
			p.Consume()
			if text != "" {
				out = append(out, &textNode{text})
			}
		case tokens.CommentBegin:
			c, err := p.ParseComment()
			if err != nil {
				return nil, "", err
			}
			tp.trimAfter(c.End)
		case tokens.VariableBegin:
			p.Consume()
			e, err := tp.parseTuple(true, false)
			if err != nil {
				return nil, "", err
			}
			end := p.Match(tokens.VariableEnd)
			if end == nil {
				return nil, "", tp.errorf("expected '}}'")
			}
			tp.trimAfter(end)
			out = append(out, &outputNode{e})
		case tokens.BlockBegin:
			p.Consume()
			name := p.Match(tokens.Name)
			if name != nil && name.Val == "" {
				// gonja's lexer emits an empty name when a newline
				// follows {%; the statement name comes next.
				name = p.Match(tokens.Name)
			}
			if name == nil {
				return nil, "", tp.errorf("expected a statement name")
			}
			for _, s := range stop {
				if name.Val == s {
					return out, s, nil
				}
			}
			n, err := tp.parseStatement(name.Val)
			if err != nil {
				return nil, "", err
			}
			if n != nil {
				out = append(out, n)
			}
		default:
			return nil, "", tp.errorf("unexpected %q", t.Val)
		}
	}
}

// trimAfter applies a closing tag's '-' to the data that follows it.
func (tp *templateParser) trimAfter(end *tokens.Token) {
	// The closing token's value includes the whitespace before it.
	if end == nil || !strings.HasPrefix(strings.TrimLeft(end.Val, " \t\r\n"), "-") {
		return
	}
	if data := tp.p.Current(tokens.Data); data != nil {
		data.Trim = true
	}
}

func (tp *templateParser) blockEnd() error {
	end := tp.p.Match(tokens.BlockEnd)
	if end == nil {
		return tp.errorf("expected '%%}'")
	}
	tp.trimAfter(end)
	return nil
}

func (tp *templateParser) errorf(format string, args ...any) error {
	t := tp.p.Current()
	msg := fmt.Sprintf(format, args...)
	if t != nil {
		return fmt.Errorf("line %d col %d near %q: %s", t.Line, t.Col, t.Val, msg)
	}
	return fmt.Errorf("%s", msg)
}

func (tp *templateParser) names() ([]string, error) {
	var names []string
	for {
		t := tp.p.Match(tokens.Name)
		if t == nil {
			return nil, tp.errorf("expected a name")
		}
		names = append(names, t.Val)
		if tp.p.Match(tokens.Comma) == nil {
			return names, nil
		}
	}
}

// parseStatement parses the statement a {% name ... %} tag opens, as
// Jinja2's Parser.parse_statement dispatches to parse_<name>.
func (tp *templateParser) parseStatement(name string) (node, error) {
	switch name {
	case "if":
		return tp.parseIf()
	case "for":
		return tp.parseFor()
	case "set":
		return tp.parseSet()
	case "macro":
		return tp.parseMacro()
	case "filter":
		return tp.parseFilterBlock()
	case "with":
		return tp.parseWith()
	case "do":
		// {% do %} needs the "do" extension in Jinja2, which lm-eval does
		// not enable.
		return nil, fmt.Errorf("encountered unknown tag 'do' (the jinja2.ext.do extension is not enabled in lm-eval)")
	case "break", "continue":
		return tp.parseLoopControl(name)
	case "generation":
		if tp.syntax.generation {
			return tp.parseGeneration()
		}
	case "raw":
		return tp.parseRaw()
	}
	return nil, fmt.Errorf("encountered unknown tag '%s'", name)
}

// parseIf parses {% if %} with its elif and else branches, up to endif.
func (tp *templateParser) parseIf() (n node, err error) {
	err = tp.softly(func() error {
		n, err = tp.parseIfSoftly()
		return err
	})
	return n, err
}

func (tp *templateParser) parseIfSoftly() (node, error) {
	n := &ifNode{}
	cond, err := tp.parseTuple(false, false)
	if err != nil {
		return nil, err
	}
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	for {
		body, end, err := tp.parseBody("elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		if cond != nil {
			n.conds = append(n.conds, cond)
		}
		n.bodies = append(n.bodies, body)
		cond = nil
		switch end {
		case "elif":
			if len(n.bodies) > len(n.conds) {
				return nil, tp.errorf("elif after else")
			}
			if cond, err = tp.parseTuple(false, false); err != nil {
				return nil, err
			}
		case "else":
			if len(n.bodies) > len(n.conds) {
				return nil, tp.errorf("two else blocks")
			}
		case "endif":
			return n, tp.blockEnd()
		}
		if err := tp.blockEnd(); err != nil {
			return nil, err
		}
	}
}

// parseFor parses {% for %}, its loop filter and else branch, up to endfor.
func (tp *templateParser) parseFor() (node, error) {
	p := tp.p
	n := &forNode{}
	var err error
	if n.targets, err = tp.names(); err != nil {
		return nil, err
	}
	if p.Match(tokens.In) == nil {
		return nil, tp.errorf("expected 'in'")
	}
	// The iterable is parsed without the conditional expression so
	// that a trailing `if` is the loop filter, as in Jinja2.
	if n.iter, err = tp.parseTuple(false, false, "recursive"); err != nil {
		return nil, err
	}
	if p.MatchName("if") != nil {
		if err = tp.hard(func() (err error) { n.filter, err = tp.parseExpr(); return err }); err != nil {
			return nil, err
		}
	}
	if p.MatchName("recursive") != nil {
		return nil, tp.errorf("recursive loops are not supported")
	}
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	err = tp.hard(func() error {
		tp.loopDepth++
		body, end, err := tp.parseBody("else", "endfor")
		tp.loopDepth--
		if err != nil {
			return err
		}
		n.body = body
		if err := tp.blockEnd(); err != nil {
			return err
		}
		if end == "else" {
			if n.orElse, _, err = tp.parseBody("endfor"); err != nil {
				return err
			}
			return tp.blockEnd()
		}
		return nil
	})
	return n, err
}

// parseSet parses {% set %}: an assignment (to names, or to a namespace
// attribute) or a block set up to endset.
func (tp *templateParser) parseSet() (node, error) {
	p := tp.p
	n := &setNode{}
	first := p.Match(tokens.Name)
	if first == nil {
		return nil, tp.errorf("expected a name")
	}
	n.targets = []string{first.Val}
	if p.Match(tokens.Dot) != nil {
		attr := p.Match(tokens.Name)
		if attr == nil {
			return nil, tp.errorf("expected an attribute name")
		}
		n.attr = attr.Val
	} else {
		for p.Match(tokens.Comma) != nil {
			t := p.Match(tokens.Name)
			if t == nil {
				return nil, tp.errorf("expected a name")
			}
			n.targets = append(n.targets, t.Val)
		}
	}
	if p.Match(tokens.Assign) != nil {
		v, err := tp.parseTuple(true, false)
		if err != nil {
			return nil, err
		}
		n.value = v
		return n, tp.blockEnd()
	}
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	err := tp.hard(func() (err error) { n.body, _, err = tp.parseBody("endset"); return err })
	if err != nil {
		return nil, err
	}
	return n, tp.blockEnd()
}

// parseMacro parses {% macro name(params) %} up to endmacro.
func (tp *templateParser) parseMacro() (node, error) {
	p := tp.p
	t := p.Match(tokens.Name)
	if t == nil {
		return nil, tp.errorf("expected a macro name")
	}
	n := &macroNode{name: t.Val, defaults: map[string]expr{}}
	if p.Match(tokens.LeftParenthesis) == nil {
		return nil, tp.errorf("expected '('")
	}
	for p.Match(tokens.RightParenthesis) == nil {
		arg := p.Match(tokens.Name)
		if arg == nil {
			return nil, tp.errorf("expected a parameter name")
		}
		n.params = append(n.params, arg.Val)
		if p.Match(tokens.Assign) != nil {
			d, err := tp.parseExpr()
			if err != nil {
				return nil, err
			}
			n.defaults[arg.Val] = d
		}
		p.Match(tokens.Comma)
	}
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	err := tp.hard(func() (err error) { n.body, _, err = tp.parseBody("endmacro"); return err })
	if err != nil {
		return nil, err
	}
	return n, tp.blockEnd()
}

// parseFilterBlock parses a {% filter %} block up to endfilter.
func (tp *templateParser) parseFilterBlock() (n node, err error) {
	err = tp.hard(func() error {
		fe, err := tp.parseFilters(nil, true)
		if err != nil {
			return err
		}
		fb := &filterBlockNode{filters: fe.(*nodes.FilteredExpression).Filters}
		if err := tp.blockEnd(); err != nil {
			return err
		}
		if fb.body, _, err = tp.parseBody("endfilter"); err != nil {
			return err
		}
		n = fb
		return tp.blockEnd()
	})
	return n, err
}

// parseGeneration parses transformers' {% generation %} up to
// endgeneration: a call block whose body renders as it is (transformers
// only notes where it starts and ends, for assistant token masks).
func (tp *templateParser) parseGeneration() (node, error) {
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	n := &withNode{}
	err := tp.hard(func() (err error) { n.body, _, err = tp.parseBody("endgeneration"); return err })
	if err != nil {
		return nil, err
	}
	return n, tp.blockEnd()
}

// parseWith parses {% with name=value, ... %} up to endwith.
func (tp *templateParser) parseWith() (node, error) {
	p := tp.p
	n := &withNode{}
	for p.Current(tokens.BlockEnd) == nil {
		t := p.Match(tokens.Name)
		if t == nil || p.Match(tokens.Assign) == nil {
			return nil, tp.errorf("expected name=value")
		}
		v, err := tp.parseExpr()
		if err != nil {
			return nil, err
		}
		n.names = append(n.names, t.Val)
		n.values = append(n.values, v)
		p.Match(tokens.Comma)
	}
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	err := tp.hard(func() (err error) { n.body, _, err = tp.parseBody("endwith"); return err })
	if err != nil {
		return nil, err
	}
	return n, tp.blockEnd()
}

// parseLoopControl parses {% break %} and {% continue %}, which need the
// loopcontrols extension and a loop.
func (tp *templateParser) parseLoopControl(name string) (node, error) {
	if !tp.syntax.loopControls {
		return nil, fmt.Errorf("encountered unknown tag '%s'", name)
	}
	if tp.loopDepth == 0 {
		return nil, tp.errorf("'%s' outside of a loop", name)
	}
	return &loopControlNode{isBreak: name == "break"}, tp.blockEnd()
}

// parseRaw parses {% raw %}: the text up to endraw, as it is.
func (tp *templateParser) parseRaw() (node, error) {
	p := tp.p
	if err := tp.blockEnd(); err != nil {
		return nil, err
	}
	// gonja's lexer hands the raw content over as data.
	var text strings.Builder
	for {
		t := p.Current()
		if t == nil || t.Type == tokens.EOF {
			return nil, tp.errorf("missing endraw")
		}
		if t.Type == tokens.Data {
			s := t.Val
			if t.Trim {
				s = strings.TrimLeft(s, " \t\r\n")
			}
			if next := p.Peek(tokens.BlockBegin); next != nil && strings.HasSuffix(next.Val, "-") {
				s = strings.TrimRight(s, " \t\r\n")
			}
			text.WriteString(s)
			p.Consume()
			continue
		}
		if t.Type != tokens.BlockBegin {
			return nil, tp.errorf("unexpected %q in raw block", t.Val)
		}
		p.Consume()
		if end := p.MatchName("endraw"); end == nil {
			return nil, tp.errorf("expected endraw")
		}
		if err := tp.blockEnd(); err != nil {
			return nil, err
		}
		return &textNode{text.String()}, nil
	}
}

var (
	rawStart = regexp.MustCompile(`^\{%[-+]?\s*raw\s*[-+]?%\}`)
	rawEnd   = regexp.MustCompile(`\{%[-+]?\s*endraw\s*[-+]?%\}`)
)

// escapeBackslashes rewrites each escaped backslash (\\) inside a string
// literal of a {{ }} or {% %} tag as \x5c. Both decode to one backslash
// in Jinja2's string literals, but gonja's lexer takes the quote after \\
// for an escaped quote and runs the string on ('C:\\' fails to parse).
// Text outside tags and comments is left alone.
func escapeBackslashes(src string, cfg *config.Config) string {
	if !strings.Contains(src, `\\`) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	i := 0
	for i < len(src) {
		j := strings.IndexByte(src[i:], cfg.VariableStartString[0])
		if j < 0 {
			b.WriteString(src[i:])
			break
		}
		j += i
		b.WriteString(src[i:j])
		var closing string
		switch rest := src[j:]; {
		case strings.HasPrefix(rest, cfg.CommentStartString):
			end := strings.Index(src[j+len(cfg.CommentStartString):], cfg.CommentEndString)
			if end < 0 {
				b.WriteString(src[j:])
				return b.String()
			}
			stop := j + len(cfg.CommentStartString) + end + len(cfg.CommentEndString)
			b.WriteString(src[j:stop])
			i = stop
			continue
		case strings.HasPrefix(rest, cfg.VariableStartString):
			closing = cfg.VariableEndString
		case strings.HasPrefix(rest, cfg.BlockStartString):
			closing = cfg.BlockEndString
			if rawStart.MatchString(rest) {
				// A raw block is copied as it is, up to its endraw.
				loc := rawEnd.FindStringIndex(rest)
				if loc == nil {
					b.WriteString(rest)
					return b.String()
				}
				b.WriteString(rest[:loc[1]])
				i = j + loc[1]
				continue
			}
		default:
			b.WriteByte(src[j])
			i = j + 1
			continue
		}
		p := j + 2
		b.WriteString(src[j:p])
		depth := 0
		for p < len(src) {
			c := src[p]
			if c == '\'' || c == '"' {
				b.WriteByte(c)
				p++
				for p < len(src) && src[p] != c {
					if src[p] == '\\' && p+1 < len(src) {
						if src[p+1] == '\\' {
							b.WriteString(`\x5c`)
						} else {
							b.WriteString(src[p : p+2])
						}
						p += 2
						continue
					}
					b.WriteByte(src[p])
					p++
				}
				if p < len(src) {
					b.WriteByte(c)
					p++
				}
				continue
			}
			if depth == 0 && strings.HasPrefix(src[p:], closing) {
				b.WriteString(closing)
				p += len(closing)
				break
			}
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			b.WriteByte(c)
			p++
		}
		i = p
	}
	return b.String()
}
