package jinja

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// Expressions are parsed here, on gonja's token stream, following
// jinja2/parser.py rule for rule (parse_tuple, parse_condexpr, parse_or, ...,
// parse_unary, parse_primary, parse_postfix, parse_filter_expr), so that
// precedence, conditional expressions anywhere (list items, call arguments,
// parentheses), tests and filters bind exactly as in Jinja2. The tree is
// made of gonja's node types plus condExpr.

func (tp *templateParser) cur() *tokens.Token { return tp.p.Current() }

func (tp *templateParser) is(typ tokens.Type) bool {
	t := tp.cur()
	return t != nil && t.Type == typ
}

func (tp *templateParser) isName(names ...string) bool {
	t := tp.cur()
	if t == nil || t.Type != tokens.Name {
		return false
	}
	for _, n := range names {
		if t.Val == n {
			return true
		}
	}
	return false
}

func (tp *templateParser) expect(typ tokens.Type, what string) (*tokens.Token, error) {
	if t := tp.p.Match(typ); t != nil {
		return t, nil
	}
	return nil, tp.errorf("expected %s", what)
}

// parseTuple is parse_tuple: an expression, or a tuple when commas follow.
func (tp *templateParser) parseTuple(withCondExpr, explicitParens bool, extraEnd ...string) (expr, error) {
	var items []nodes.Expression
	isTuple := false
	for {
		if len(items) > 0 {
			if _, err := tp.expect(tokens.Comma, "','"); err != nil {
				return nil, err
			}
		}
		if tp.isTupleEnd(extraEnd) {
			break
		}
		var e expr
		var err error
		if withCondExpr {
			e, err = tp.parseExpr()
		} else {
			e, err = tp.parseOr()
		}
		if err != nil {
			return nil, err
		}
		items = append(items, e)
		if tp.is(tokens.Comma) {
			isTuple = true
		} else {
			break
		}
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0], nil
		}
		if !explicitParens {
			return nil, tp.errorf("expected an expression")
		}
	}
	return &nodes.Tuple{Val: items}, nil
}

func (tp *templateParser) isTupleEnd(extra []string) bool {
	switch t := tp.cur(); {
	case t == nil:
		return true
	case t.Type == tokens.VariableEnd, t.Type == tokens.BlockEnd, t.Type == tokens.RightParenthesis, t.Type == tokens.EOF:
		return true
	case t.Type == tokens.Name:
		for _, n := range extra {
			if t.Val == n {
				return true
			}
		}
	}
	return false
}

// parseExpr is parse_expression with a conditional expression.
func (tp *templateParser) parseExpr() (expr, error) {
	mark := len(tp.unknown)
	e, err := tp.parseOr()
	if err != nil {
		return nil, err
	}
	for tp.isName("if") {
		// A conditional expression: Jinja2 compiles all of it softly.
		tp.unknown = tp.unknown[:mark]
		tp.p.Consume()
		c := &condExpr{yes: e}
		err := tp.softly(func() (err error) {
			if c.cond, err = tp.parseOr(); err != nil {
				return err
			}
			if tp.isName("else") {
				tp.p.Consume()
				c.no, err = tp.parseExpr()
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		e = c
	}
	return e, nil
}

func binOp(typ tokens.Type, val string, l, r expr) expr {
	return &nodes.BinaryExpression{Left: l, Right: r, Operator: &nodes.BinOperator{Token: &tokens.Token{Type: typ, Val: val}}}
}

func (tp *templateParser) parseOr() (expr, error) {
	l, err := tp.parseAnd()
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.Or) {
		tp.p.Consume()
		r, err := tp.parseAnd()
		if err != nil {
			return nil, err
		}
		l = binOp(tokens.Or, "or", l, r)
	}
	return l, nil
}

func (tp *templateParser) parseAnd() (expr, error) {
	l, err := tp.parseNot()
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.And) {
		tp.p.Consume()
		r, err := tp.parseNot()
		if err != nil {
			return nil, err
		}
		l = binOp(tokens.And, "and", l, r)
	}
	return l, nil
}

func (tp *templateParser) parseNot() (expr, error) {
	if tp.is(tokens.Not) {
		tp.p.Consume()
		e, err := tp.parseNot()
		if err != nil {
			return nil, err
		}
		return &nodes.Negation{Term: e}, nil
	}
	return tp.parseCompare()
}

var compareTokens = map[tokens.Type]bool{
	tokens.Equals: true, tokens.Ne: true, tokens.LowerThan: true, tokens.LowerThanOrEqual: true,
	tokens.GreaterThan: true, tokens.GreaterThanOrEqual: true,
}

// parseCompare is parse_compare; a chain a < b < c becomes
// (a < b) and (b < c), which is what Python's chained comparison means for
// side-effect-free operands.
func (tp *templateParser) parseCompare() (expr, error) {
	first, err := tp.parseMath1()
	if err != nil {
		return nil, err
	}
	var result expr
	left := first
	for {
		var op expr
		t := tp.cur()
		switch {
		case t != nil && compareTokens[t.Type]:
			tp.p.Consume()
			r, err := tp.parseMath1()
			if err != nil {
				return nil, err
			}
			op = binOp(t.Type, t.Val, left, r)
			left = r
		case tp.is(tokens.In):
			tp.p.Consume()
			r, err := tp.parseMath1()
			if err != nil {
				return nil, err
			}
			op = binOp(tokens.In, "in", left, r)
			left = r
		case tp.is(tokens.Not) && tp.p.Peek() != nil && tp.p.Peek().Type == tokens.In:
			tp.p.Consume()
			tp.p.Consume()
			r, err := tp.parseMath1()
			if err != nil {
				return nil, err
			}
			op = &nodes.Negation{Term: binOp(tokens.In, "in", left, r)}
			left = r
		}
		if op == nil {
			break
		}
		if result == nil {
			result = op
		} else {
			result = binOp(tokens.And, "and", result, op)
		}
	}
	if result == nil {
		return first, nil
	}
	return result, nil
}

func (tp *templateParser) parseMath1() (expr, error) {
	l, err := tp.parseConcat()
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.Addition) || tp.is(tokens.Subtraction) {
		t := tp.p.Next()
		r, err := tp.parseConcat()
		if err != nil {
			return nil, err
		}
		l = binOp(t.Type, t.Val, l, r)
	}
	return l, nil
}

func (tp *templateParser) parseConcat() (expr, error) {
	l, err := tp.parseMath2()
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.Tilde) {
		tp.p.Consume()
		r, err := tp.parseMath2()
		if err != nil {
			return nil, err
		}
		l = binOp(tokens.Tilde, "~", l, r)
	}
	return l, nil
}

func (tp *templateParser) parseMath2() (expr, error) {
	l, err := tp.parsePow()
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.Multiply) || tp.is(tokens.Division) || tp.is(tokens.FloorDivision) || tp.is(tokens.Modulo) {
		t := tp.p.Next()
		r, err := tp.parsePow()
		if err != nil {
			return nil, err
		}
		l = binOp(t.Type, t.Val, l, r)
	}
	return l, nil
}

func (tp *templateParser) parsePow() (expr, error) {
	l, err := tp.parseUnary(true)
	if err != nil {
		return nil, err
	}
	for tp.is(tokens.Power) {
		tp.p.Consume()
		r, err := tp.parseUnary(true)
		if err != nil {
			return nil, err
		}
		l = binOp(tokens.Power, "**", l, r)
	}
	return l, nil
}

func (tp *templateParser) parseUnary(withFilter bool) (expr, error) {
	var node expr
	var err error
	switch {
	case tp.is(tokens.Subtraction), tp.is(tokens.Addition):
		neg := tp.p.Next().Type == tokens.Subtraction
		term, err := tp.parseUnary(false)
		if err != nil {
			return nil, err
		}
		node = &nodes.UnaryExpression{Negative: neg, Term: term}
	default:
		if node, err = tp.parsePrimary(); err != nil {
			return nil, err
		}
	}
	if node, err = tp.parsePostfix(node); err != nil {
		return nil, err
	}
	if withFilter {
		return tp.parseFilterExpr(node)
	}
	return node, nil
}

func (tp *templateParser) parsePrimary() (expr, error) {
	t := tp.cur()
	if t == nil {
		return nil, tp.errorf("unexpected end of template")
	}
	switch t.Type {
	case tokens.Name:
		tp.p.Consume()
		switch t.Val {
		case "true", "True":
			return &nodes.Bool{Location: t, Val: true}, nil
		case "false", "False":
			return &nodes.Bool{Location: t, Val: false}, nil
		case "none", "None":
			return &nodes.None{Location: t}, nil
		}
		return &nodes.Name{Name: t}, nil
	case tokens.String:
		var b strings.Builder
		for tp.is(tokens.String) {
			s, err := pyUnescape(tp.p.Next().Val)
			if err != nil {
				return nil, tp.errorf("%v", err)
			}
			b.WriteString(s)
		}
		return &nodes.String{Location: t, Val: b.String()}, nil
	case tokens.Integer:
		tp.p.Consume()
		v, err := strconv.ParseInt(strings.ReplaceAll(t.Val, "_", ""), 0, 64)
		if err != nil {
			return nil, tp.errorf("bad integer %q", t.Val)
		}
		return &nodes.Integer{Location: t, Val: int(v)}, nil
	case tokens.Float:
		tp.p.Consume()
		v, err := strconv.ParseFloat(strings.ReplaceAll(t.Val, "_", ""), 64)
		if err != nil {
			return nil, tp.errorf("bad float %q", t.Val)
		}
		return &nodes.Float{Location: t, Val: v}, nil
	case tokens.LeftParenthesis:
		tp.p.Consume()
		e, err := tp.parseTuple(true, true)
		if err != nil {
			return nil, err
		}
		if _, err := tp.expect(tokens.RightParenthesis, "')'"); err != nil {
			return nil, err
		}
		return e, nil
	case tokens.LeftBracket:
		tp.p.Consume()
		l := &nodes.List{Location: t, Val: []nodes.Expression{}}
		for !tp.is(tokens.RightBracket) {
			if len(l.Val) > 0 {
				if _, err := tp.expect(tokens.Comma, "','"); err != nil {
					return nil, err
				}
				if tp.is(tokens.RightBracket) {
					break
				}
			}
			e, err := tp.parseExpr()
			if err != nil {
				return nil, err
			}
			l.Val = append(l.Val, e)
		}
		tp.p.Consume()
		return l, nil
	case tokens.LeftBrace:
		tp.p.Consume()
		d := &nodes.Dict{Token: t}
		for !tp.is(tokens.RightBrace) {
			if len(d.Pairs) > 0 {
				if _, err := tp.expect(tokens.Comma, "','"); err != nil {
					return nil, err
				}
				if tp.is(tokens.RightBrace) {
					break
				}
			}
			k, err := tp.parseExpr()
			if err != nil {
				return nil, err
			}
			if _, err := tp.expect(tokens.Colon, "':'"); err != nil {
				return nil, err
			}
			v, err := tp.parseExpr()
			if err != nil {
				return nil, err
			}
			d.Pairs = append(d.Pairs, &nodes.Pair{Key: k, Value: v})
		}
		tp.p.Consume()
		return d, nil
	}
	return nil, tp.errorf("unexpected %q", t.Val)
}

func (tp *templateParser) parsePostfix(node expr) (expr, error) {
	for {
		var err error
		switch {
		case tp.is(tokens.Dot), tp.is(tokens.LeftBracket):
			node, err = tp.parseSubscript(node)
		case tp.is(tokens.LeftParenthesis):
			node, err = tp.parseCall(node)
		default:
			return node, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (tp *templateParser) parseFilterExpr(node expr) (expr, error) {
	for {
		var err error
		switch {
		case tp.is(tokens.Pipe):
			node, err = tp.parseFilters(node, false)
		case tp.is(tokens.Is):
			node, err = tp.parseTest(node)
		case tp.is(tokens.LeftParenthesis):
			node, err = tp.parseCall(node)
		default:
			return node, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (tp *templateParser) parseSubscript(node expr) (expr, error) {
	t := tp.p.Next()
	if t.Type == tokens.Dot {
		attr := tp.cur()
		switch {
		case attr != nil && attr.Type == tokens.Name:
			tp.p.Consume()
			return &nodes.GetAttribute{Location: t, Node: node, Attribute: attr.Val}, nil
		case attr != nil && attr.Type == tokens.Integer:
			tp.p.Consume()
			i, err := strconv.Atoi(attr.Val)
			if err != nil {
				return nil, tp.errorf("bad index %q", attr.Val)
			}
			return &nodes.GetItem{Location: t, Node: node, Arg: &nodes.Integer{Val: i}}, nil
		}
		return nil, tp.errorf("expected name or number")
	}
	var args []nodes.Expression
	var slice *nodes.GetSlice
	for !tp.is(tokens.RightBracket) {
		if len(args) > 0 || slice != nil {
			if _, err := tp.expect(tokens.Comma, "','"); err != nil {
				return nil, err
			}
		}
		a, s, err := tp.parseSubscribed()
		if err != nil {
			return nil, err
		}
		if s != nil {
			if slice != nil || len(args) > 0 {
				return nil, tp.errorf("multi-dimensional subscripts are not supported")
			}
			slice = s
			continue
		}
		args = append(args, a)
	}
	tp.p.Consume()
	if slice != nil {
		slice.Location, slice.Node = t, node
		return slice, nil
	}
	switch len(args) {
	case 0:
		return nil, tp.errorf("expected a subscript")
	case 1:
		return &nodes.GetItem{Location: t, Node: node, Arg: args[0]}, nil
	}
	return &nodes.GetItem{Location: t, Node: node, Arg: &nodes.Tuple{Val: args}}, nil
}

// parseSubscribed is parse_subscribed: an index expression or a slice.
func (tp *templateParser) parseSubscribed() (expr, *nodes.GetSlice, error) {
	s := &nodes.GetSlice{}
	if tp.is(tokens.Colon) {
		tp.p.Consume()
	} else {
		e, err := tp.parseExpr()
		if err != nil {
			return nil, nil, err
		}
		if !tp.is(tokens.Colon) {
			return e, nil, nil
		}
		tp.p.Consume()
		s.Start = e
	}
	if !tp.is(tokens.Colon) && !tp.is(tokens.RightBracket) && !tp.is(tokens.Comma) {
		e, err := tp.parseExpr()
		if err != nil {
			return nil, nil, err
		}
		s.End = e
	}
	if tp.is(tokens.Colon) {
		tp.p.Consume()
		if !tp.is(tokens.RightBracket) && !tp.is(tokens.Comma) {
			e, err := tp.parseExpr()
			if err != nil {
				return nil, nil, err
			}
			s.Step = e
		}
	}
	return nil, s, nil
}

func (tp *templateParser) parseCallArgs() ([]nodes.Expression, map[string]nodes.Expression, error) {
	if _, err := tp.expect(tokens.LeftParenthesis, "'('"); err != nil {
		return nil, nil, err
	}
	args := []nodes.Expression{}
	kwargs := map[string]nodes.Expression{}
	for !tp.is(tokens.RightParenthesis) {
		if len(args) > 0 || len(kwargs) > 0 {
			if _, err := tp.expect(tokens.Comma, "','"); err != nil {
				return nil, nil, err
			}
			if tp.is(tokens.RightParenthesis) {
				break
			}
		}
		if tp.is(tokens.Multiply) || tp.is(tokens.Power) {
			return nil, nil, tp.errorf("*args and **kwargs in calls are not supported")
		}
		if t := tp.cur(); t != nil && t.Type == tokens.Name && tp.p.Peek() != nil && tp.p.Peek().Type == tokens.Assign {
			tp.p.Consume()
			tp.p.Consume()
			v, err := tp.parseExpr()
			if err != nil {
				return nil, nil, err
			}
			kwargs[t.Val] = v
			continue
		}
		if len(kwargs) > 0 {
			return nil, nil, tp.errorf("positional argument follows keyword argument")
		}
		v, err := tp.parseExpr()
		if err != nil {
			return nil, nil, err
		}
		args = append(args, v)
	}
	tp.p.Consume()
	return args, kwargs, nil
}

func (tp *templateParser) parseCall(node expr) (expr, error) {
	loc := tp.cur()
	args, kwargs, err := tp.parseCallArgs()
	if err != nil {
		return nil, err
	}
	return &nodes.Call{Location: loc, Func: node, Args: args, Kwargs: kwargs}, nil
}

func (tp *templateParser) dottedName() (string, *tokens.Token, error) {
	t, err := tp.expect(tokens.Name, "a name")
	if err != nil {
		return "", nil, err
	}
	name := t.Val
	for tp.is(tokens.Dot) {
		tp.p.Consume()
		n, err := tp.expect(tokens.Name, "a name")
		if err != nil {
			return "", nil, err
		}
		name += "." + n.Val
	}
	return name, t, nil
}

// parseFilters is parse_filter; with node == nil (a {% filter %} block) it
// returns the filter calls wrapped around a nil expression.
func (tp *templateParser) parseFilters(node expr, startInline bool) (expr, error) {
	fe := &nodes.FilteredExpression{Expression: node}
	for tp.is(tokens.Pipe) || startInline {
		if !startInline {
			tp.p.Consume()
		}
		startInline = false
		name, t, err := tp.dottedName()
		if err != nil {
			return nil, err
		}
		fc := &nodes.FilterCall{Token: t, Name: name, Args: []nodes.Expression{}, Kwargs: map[string]nodes.Expression{}}
		if tp.is(tokens.LeftParenthesis) {
			if fc.Args, fc.Kwargs, err = tp.parseCallArgs(); err != nil {
				return nil, err
			}
		}
		if _, known := filters[name]; !known {
			tp.unknownName("filter", name)
		}
		fe.Filters = append(fe.Filters, fc)
	}
	return fe, nil
}

func (tp *templateParser) parseTest(node expr) (expr, error) {
	tp.p.Consume() // is
	negated := false
	if tp.is(tokens.Not) {
		tp.p.Consume()
		negated = true
	}
	// `is in`: the lexer gives `in` its own token type.
	var name string
	var t *tokens.Token
	if tp.is(tokens.In) {
		t = tp.p.Next()
		name = "in"
	} else {
		var err error
		if name, t, err = tp.dottedName(); err != nil {
			return nil, err
		}
	}
	tc := &nodes.TestCall{Token: t, Name: name, Args: []nodes.Expression{}, Kwargs: map[string]nodes.Expression{}}
	switch c := tp.cur(); {
	case tp.is(tokens.LeftParenthesis):
		var err error
		if tc.Args, tc.Kwargs, err = tp.parseCallArgs(); err != nil {
			return nil, err
		}
	case c != nil && (c.Type == tokens.Name || c.Type == tokens.String || c.Type == tokens.Integer || c.Type == tokens.Float ||
		c.Type == tokens.LeftParenthesis || c.Type == tokens.LeftBracket || c.Type == tokens.LeftBrace) &&
		!tp.isName("else", "or", "and"):
		arg, err := tp.parsePrimary()
		if err != nil {
			return nil, err
		}
		if arg, err = tp.parsePostfix(arg); err != nil {
			return nil, err
		}
		tc.Args = []nodes.Expression{arg}
	}
	if _, known := tests[name]; !known {
		tp.unknownName("test", name)
	}
	var out expr = &nodes.TestExpression{Expression: node, Test: tc}
	if negated {
		out = &nodes.Negation{Term: out}
	}
	return out, nil
}

// pyUnescape decodes a string literal's backslash escapes as Jinja2 does
// (Python's unicode-escape codec): unknown escapes are kept verbatim.
// gonja's lexer has already turned \' and \" into quotes.
func pyUnescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		d := s[i]
		switch d {
		case '\\':
			b.WriteByte('\\')
		case '\'', '"':
			b.WriteByte(d)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\n':
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[d]
			if i+1+n > len(s) {
				return "", fmt.Errorf("truncated \\%c escape", d)
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) && d != 'x' {
				return "", fmt.Errorf("bad \\%c escape", d)
			}
			b.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(d - '0')
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteRune(rune(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return b.String(), nil
}
