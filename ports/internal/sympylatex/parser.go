package sympylatex

import (
	"errors"
	"math/big"
	"strings"
	"unicode"
)

// ErrParse is returned for input sympy's parse_latex rejects
// (LaTeXParsingError).
var ErrParse = errors.New("sympylatex: cannot parse")

// Expr is a parsed expression, in the shape sympy's LaTeX converter
// (sympy/parsing/latex/_parse_latex_antlr.py) builds.
type Expr struct {
	op    string   // num, sym, inf, add, mul, pow, neg, fn, ufn, rel, opaque, dop
	num   *big.Rat // op == num
	flt   bool     // op == num: written with a decimal point (a sympy Float)
	sig   int      // op == num, flt: its significant digits
	name  string   // sym, fn, ufn, rel: the name or operator; opaque: its text; sum, prod, int, deriv, lim: the variable
	name2 string   // lim: the direction ("+", "-" or "+-")
	kids  []*Expr
}

func num(r *big.Rat) *Expr           { return &Expr{op: "num", num: r} }
func intNum(n int64) *Expr           { return num(big.NewRat(n, 1)) }
func sym(name string) *Expr          { return &Expr{op: "sym", name: name} }
func mk(op string, k ...*Expr) *Expr { return &Expr{op: op, kids: k} }
func fn(name string, k ...*Expr) *Expr {
	return &Expr{op: "fn", name: name, kids: k}
}
func inv(e *Expr) *Expr { return mk("pow", e, intNum(-1)) }

// String prints e canonically (used for subscripted symbol names and
// opaque constructs, so equal input gives equal names).
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Expr) write(b *strings.Builder) {
	switch e.op {
	case "num":
		if e.num.IsInt() {
			b.WriteString(e.num.Num().String())
		} else {
			b.WriteString(e.num.RatString())
		}
		return
	case "sym":
		b.WriteString(e.name)
		return
	case "inf":
		b.WriteString("oo")
		return
	case "opaque":
		b.WriteString("opaque(" + e.name + ")")
		return
	}
	b.WriteString(e.op)
	if e.name != "" {
		b.WriteString(":" + e.name)
	}
	b.WriteByte('(')
	for i, k := range e.kids {
		if i > 0 {
			b.WriteByte(',')
		}
		k.write(b)
	}
	b.WriteByte(')')
}

type parser struct {
	src   string
	toks  []token
	errAt int // token index of a lexer error, -1 if none
	pos   int
	steps int
	first bool // the next postfix starts its unary expression
	// inTrial is set while a further factor of a product is tried: a
	// failure inside it ends the product instead of the parse
	inTrial bool
	// oneDigit makes the next number a single digit (a retry, as ANTLR's
	// prediction does when a longer number leaves a function no argument)
	oneDigit bool
}

type fatal struct{}

// maxSteps bounds the work of one parse: backtracking on long malformed
// input could otherwise take exponential time. An input that needs more
// is not parsed (lm-eval gives up on is_equiv after a timeout too).
const maxSteps = 2_000_000

func (p *parser) peekAt(i int) token {
	p.steps++
	if p.steps > maxSteps {
		panic(fatal{})
	}
	if p.errAt >= 0 && i >= p.errAt {
		panic(fatal{})
	}
	if i >= len(p.toks) {
		return token{kind: tEOF, start: len(p.src)}
	}
	return p.toks[i]
}

func (p *parser) peek() tokKind { return p.peekAt(p.pos).kind }

func (p *parser) accept(k tokKind) bool {
	if p.peek() == k {
		p.pos++
		return true
	}
	return false
}

// try runs f and rewinds when it fails.
func (p *parser) try(f func() *Expr) *Expr {
	save := p.pos
	e := f()
	if e == nil {
		p.pos = save
	}
	return e
}

// Parse parses s as sympy.parsing.latex.parse_latex does (the ANTLR
// backend): it returns ErrParse where parse_latex raises.
func Parse(s string) (e *Expr, err error) {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
	toks, errAt := lex(s)
	p := &parser{src: s, toks: toks, errAt: errAt}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatal); !ok {
				panic(r)
			}
			e, err = nil, ErrParse
		}
	}()
	e = p.relation()
	if e == nil {
		return nil, ErrParse
	}
	return e, nil
}

func isRelTok(k tokKind) bool {
	switch k {
	case tEqual, tLT, tLTE, tGT, tGTE, tNeq:
		return true
	}
	return false
}

func (p *parser) relation() *Expr {
	left := p.expr()
	if left == nil {
		return nil
	}
	for isRelTok(p.peek()) {
		save := p.pos
		op := p.toks[p.pos].kind
		p.pos++
		right := p.expr()
		if right == nil {
			// a relation sign commits the parse (sympy: "x=" fails)
			_ = save
			panic(fatal{})
		}
		left = &Expr{op: "rel", name: relName(op), kids: []*Expr{left, right}}
	}
	return left
}

func relName(k tokKind) string {
	switch k {
	case tEqual:
		return "="
	case tLT:
		return "<"
	case tLTE:
		return "<="
	case tGT:
		return ">"
	case tGTE:
		return ">="
	}
	return "!="
}

func (p *parser) expr() *Expr { return p.additive() }

func (p *parser) additive() *Expr {
	left := p.mp(false)
	if left == nil {
		return nil
	}
	for {
		k := p.peek()
		if k != tAdd && k != tSub {
			return left
		}
		save := p.pos
		p.pos++
		right := p.mp(false)
		if right == nil {
			p.pos = save
			return left
		}
		if k == tAdd {
			left = mk("add", left, right)
		} else {
			left = mk("add", left, mk("neg", right))
		}
	}
}

func isMulTok(k tokKind) (mul, ok bool) {
	switch k {
	case tMul, tCmdTimes, tCmdCdot:
		return true, true
	case tDiv, tCmdDiv, tColon:
		return false, true
	}
	return false, false
}

func (p *parser) mp(nofunc bool) *Expr {
	left := p.unary(nofunc)
	if left == nil {
		return nil
	}
	for {
		isMul, ok := isMulTok(p.peek())
		if !ok {
			return left
		}
		save := p.pos
		p.pos++
		right := p.unary(nofunc)
		if right == nil {
			p.pos = save
			return left
		}
		if isMul {
			left = mk("mul", left, right)
		} else {
			left = mk("mul", left, inv(right))
		}
	}
}

func (p *parser) unary(nofunc bool) *Expr {
	switch p.peek() {
	case tAdd:
		return p.try(func() *Expr { p.pos++; return p.unary(nofunc) })
	case tSub:
		return p.try(func() *Expr {
			p.pos++
			u := p.unary(nofunc)
			if u == nil {
				return nil
			}
			return mk("neg", u)
		})
	}
	// postfix+ (unary) or postfix postfix_nofunc* (unary_nofunc)
	var list []*Expr
	p.first = !p.inTrial
	first := p.postfix(false)
	if first == nil {
		return nil
	}
	list = append(list, first)
	for {
		p.first = false
		saved := p.inTrial
		p.inTrial = true
		e := p.try(func() *Expr { return p.postfix(nofunc) })
		p.inTrial = saved
		if e == nil {
			break
		}
		list = append(list, e)
	}
	return postfixList(list, 0)
}

// postfixList is convert_postfix_list: implicit multiplication, with a
// bare x between two variable-free factors read as a times sign.
func postfixList(arr []*Expr, i int) *Expr {
	res := arr[i]
	if res.op == "dop" {
		if i == len(arr)-1 {
			panic(fatal{})
		}
		rest := postfixList(arr, i+1)
		return &Expr{op: "deriv", name: res.kids[0].name, kids: []*Expr{rest}}
	}
	if i == len(arr)-1 {
		return res
	}
	if i > 0 {
		l, r := arr[i-1], arr[i+1]
		if l.op != "dop" && r.op != "dop" && !hasSymbol(l) && !hasSymbol(r) && res.op == "sym" && res.name == "x" {
			return postfixList(arr, i+1)
		}
	}
	return mk("mul", res, postfixList(arr, i+1))
}

func hasSymbol(e *Expr) bool {
	if e.op == "sym" {
		return true
	}
	if e.op == "opaque" {
		return true // conservatively: integrals and limits carry variables
	}
	for _, k := range e.kids {
		if hasSymbol(k) {
			return true
		}
	}
	return false
}

func (p *parser) postfix(nofunc bool) *Expr {
	e := p.exp(nofunc)
	if e == nil {
		return nil
	}
	for {
		if p.peek() == tBang {
			p.pos++
			if e.op == "dop" {
				panic(fatal{})
			}
			e = fn("factorial", e)
			continue
		}
		if p.peek() == tBar {
			ne := p.try(func() *Expr { return p.evalAt(e) })
			if ne == nil {
				return e
			}
			e = ne
			continue
		}
		return e
	}
}

// evalAt is eval_at (|^{..}_{..}); substitution results are opaque.
func (p *parser) evalAt(e *Expr) *Expr {
	p.pos++ // BAR
	start := p.pos
	part := func(k tokKind) bool {
		save := p.pos
		if !p.accept(k) || !p.accept(tLBrace) {
			p.pos = save
			return false
		}
		if p.try(func() *Expr { return p.equality() }) == nil && p.expr() == nil {
			p.pos = save
			return false
		}
		if !p.accept(tRBrace) {
			p.pos = save
			return false
		}
		return true
	}
	if part(tCaret) {
		part(tUnderscore)
	} else if !part(tUnderscore) {
		return nil
	}
	return &Expr{op: "opaque", name: "Subs(" + e.String() + "," + p.text(start, p.pos) + ")"}
}

func (p *parser) text(from, to int) string {
	var b strings.Builder
	for i := from; i < to && i < len(p.toks); i++ {
		b.WriteString(p.toks[i].text)
	}
	return b.String()
}

func (p *parser) equality() *Expr {
	a := p.expr()
	if a == nil || !p.accept(tEqual) {
		return nil
	}
	b := p.expr()
	if b == nil {
		return nil
	}
	return &Expr{op: "rel", name: "=", kids: []*Expr{a, b}}
}

func (p *parser) exp(nofunc bool) *Expr {
	base := p.comp(nofunc)
	if base == nil {
		return nil
	}
	for p.peek() == tCaret {
		ne := p.try(func() *Expr {
			p.pos++
			var ex *Expr
			if p.peek() == tLBrace {
				ex = p.try(func() *Expr {
					p.pos++
					e := p.expr()
					if e == nil || !p.accept(tRBrace) {
						return nil
					}
					return e
				})
			}
			if ex == nil {
				ex = p.atom()
			}
			if ex == nil {
				return nil
			}
			if base.op == "dop" {
				panic(fatal{})
			}
			p.try(func() *Expr { return p.subexpr() }) // parsed, unused by the converter
			return mk("pow", base, ex)
		})
		if ne == nil {
			break
		}
		base = ne
	}
	return base
}

func (p *parser) comp(nofunc bool) *Expr {
	first := p.first
	if e := p.try(p.group); e != nil {
		return e
	}
	p.first = first
	if e := p.try(p.absGroup); e != nil {
		return e
	}
	p.first = first
	if !nofunc {
		if e := p.try(p.function); e != nil {
			return e
		}
	}
	p.first = first
	if e := p.try(p.atom); e != nil {
		return e
	}
	if e := p.try(func() *Expr { return p.delim(tLFloor, tRFloor, "floor") }); e != nil {
		return e
	}
	return p.try(func() *Expr { return p.delim(tLCeil, tRCeil, "ceiling") })
}

func (p *parser) delim(open, close tokKind, name string) *Expr {
	if !p.accept(open) {
		return nil
	}
	e := p.expr()
	if e == nil || !p.accept(close) {
		return nil
	}
	return fn(name, e)
}

func (p *parser) group() *Expr {
	var close tokKind
	switch p.peek() {
	case tLParen:
		close = tRParen
	case tLBracket:
		close = tRBracket
	case tLBrace:
		close = tRBrace
	case tLBraceLit:
		close = tRBraceLit
	default:
		return nil
	}
	p.pos++
	e := p.expr()
	if e == nil || !p.accept(close) {
		return nil
	}
	return e
}

func (p *parser) absGroup() *Expr {
	if !p.accept(tBar) {
		return nil
	}
	e := p.expr()
	if e == nil || !p.accept(tBar) {
		return nil
	}
	return fn("Abs", e)
}

// subexpr is UNDERSCORE (atom | '{' expr '}').
func (p *parser) subexpr() *Expr {
	if !p.accept(tUnderscore) {
		return nil
	}
	return p.braceOrAtom()
}

func (p *parser) supexpr() *Expr {
	if !p.accept(tCaret) {
		return nil
	}
	return p.braceOrAtom()
}

func (p *parser) braceOrAtom() *Expr {
	if p.peek() == tLBrace {
		if e := p.try(func() *Expr {
			p.pos++
			e := p.expr()
			if e == nil || !p.accept(tRBrace) {
				return nil
			}
			return e
		}); e != nil {
			return e
		}
	}
	return p.atom()
}

// name parses (LETTER | SYMBOL) (subexpr? SINGLE_QUOTES? | SINGLE_QUOTES? subexpr?)
// and returns the sympy symbol name.
func (p *parser) name() (string, bool) {
	t := p.peekAt(p.pos)
	var n string
	switch t.kind {
	case tLetter:
		n = t.text
	case tSymbol:
		n = t.text[1:]
	default:
		return "", false
	}
	p.pos++
	quotes := ""
	// a "_" commits to the subscript: "x_(" is no symbol (sympy fails on it,
	// or ends the product before it)
	subOK := true
	addSub := func() {
		if p.peek() != tUnderscore {
			return
		}
		if sub := p.try(p.subexpr); sub != nil {
			n += "_{" + sub.String() + "}"
		} else {
			subOK = false
		}
	}
	if p.peek() == tQuotes {
		quotes = p.toks[p.pos].text
		p.pos++
		addSub()
	} else {
		addSub()
		if p.peek() == tQuotes {
			quotes = p.toks[p.pos].text
			p.pos++
		}
	}
	if t.kind == tLetter {
		n += quotes
	}
	return n, subOK
}

func (p *parser) atom() *Expr {
	defer func() { p.first = false }()
	switch p.peek() {
	case tLetter, tSymbol:
		isInf := p.toks[p.pos].kind == tSymbol && p.toks[p.pos].text == `\infty`
		first := p.first
		n, ok := p.name()
		if !ok {
			if first {
				panic(fatal{}) // as ANTLR, which commits to a unary's first factor
			}
			return nil
		}
		if isInf {
			return &Expr{op: "inf"}
		}
		return sym(n)
	case tDigit:
		return p.number()
	case tDifferential:
		t := p.toks[p.pos]
		p.pos++
		return sym("d" + differentialVar(t.text))
	case tCmdMathit:
		return p.try(func() *Expr {
			p.pos++
			if !p.accept(tLBrace) {
				return nil
			}
			start := p.pos
			for p.peek() == tLetter {
				p.pos++
			}
			if p.pos == start || !p.accept(tRBrace) {
				return nil
			}
			return sym(p.src[p.toks[start].start : p.toks[p.pos-2].start+1])
		})
	case tCmdFrac:
		return p.try(p.frac)
	case tCmdBinom:
		return p.try(func() *Expr {
			p.pos++
			n := p.bracedExpr()
			if n == nil {
				return nil
			}
			k := p.bracedExpr()
			if k == nil {
				return nil
			}
			return fn("binomial", n, k)
		})
	case tLAngle:
		return p.try(func() *Expr {
			start := p.pos
			p.pos++
			if p.expr() == nil || !(p.accept(tRBar) || p.accept(tBar)) {
				return nil
			}
			return &Expr{op: "opaque", name: "Bra" + p.text(start, p.pos)}
		})
	case tLBar, tBar:
		return p.try(func() *Expr {
			start := p.pos
			p.pos++
			if p.expr() == nil || !p.accept(tRAngle) {
				return nil
			}
			return &Expr{op: "opaque", name: "Ket" + p.text(start, p.pos)}
		})
	}
	return nil
}

func differentialVar(text string) string {
	text = strings.TrimLeft(text[1:], " \t\r\n")
	return strings.TrimPrefix(text, `\`)
}

func (p *parser) bracedExpr() *Expr {
	if !p.accept(tLBrace) {
		return nil
	}
	e := p.expr()
	if e == nil || !p.accept(tRBrace) {
		return nil
	}
	return e
}

// number is DIGIT+ (',' DIGIT DIGIT DIGIT)* ('.' DIGIT+)?, with the splits
// ANTLR's adaptive prediction makes when the run of digits ends in a "."
// that no digit follows (measured against sympy, testdata/parse_vectors):
// a number whose fraction has two or more digits leaves its last digit to
// the next number ("0.25." is 0.2, "1.23.4" is 1.2*3.4); an integer part of
// two or more digits ends after its first digit ("12." is 1) or before its
// comma groups ("12,345." is 12); a one-digit integer part is an error when
// the number starts its unary expression ("2.", "x+1.") and no number
// otherwise.
func (p *parser) number() *Expr {
	first := p.first
	p.first = false
	start := p.pos
	if p.oneDigit {
		p.oneDigit = false
		p.pos++
		return &Expr{op: "num", num: new(big.Rat).SetInt64(int64(p.toks[start].text[0] - '0'))}
	}
	for p.peek() == tDigit {
		p.pos++
	}
	intEnd := p.pos
	for p.peek() == tComma {
		if p.peekAt(p.pos+1).kind == tDigit && p.peekAt(p.pos+2).kind == tDigit && p.peekAt(p.pos+3).kind == tDigit {
			p.pos += 4
			continue
		}
		break
	}
	fracDigits := 0
	if p.peek() == tDot {
		if p.peekAt(p.pos+1).kind != tDigit {
			switch {
			case p.pos > intEnd: // comma groups
				p.pos = intEnd
			case intEnd-start >= 2:
				p.pos = start + 1
			case first:
				panic(fatal{})
			default:
				return nil
			}
		} else {
			p.pos++
			for p.peek() == tDigit {
				p.pos++
				fracDigits++
			}
			if fracDigits >= 2 && p.peek() == tDot {
				p.pos--
				fracDigits--
			}
		}
	}
	var b strings.Builder
	for i := start; i < p.pos; i++ {
		if t := p.toks[i]; t.kind != tComma {
			b.WriteString(t.text)
		}
	}
	text := b.String()
	if fracDigits == 0 && len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		// sympy.Number("030") raises SympifyError (not a Python literal)
		panic(fatal{})
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		panic(fatal{})
	}
	return &Expr{op: "num", num: r, flt: fracDigits > 0, sig: len(strings.TrimLeft(strings.ReplaceAll(text, ".", ""), "0"))}
}

func (p *parser) frac() *Expr {
	p.pos++ // \frac
	part := func() (*Expr, int, int, bool) {
		if p.peek() == tDigit {
			t := p.toks[p.pos]
			p.pos++
			r, _ := new(big.Rat).SetString(t.text)
			return num(r), -1, -1, true
		}
		if !p.accept(tLBrace) {
			return nil, 0, 0, false
		}
		start := p.pos
		e := p.expr()
		end := p.pos
		if e == nil || !p.accept(tRBrace) {
			return nil, 0, 0, false
		}
		return e, start, end, true
	}
	upper, us, ue, ok := part()
	if !ok {
		return nil
	}
	lower, ls, le, ok := part()
	if !ok {
		return nil
	}
	if us >= 0 && ls >= 0 {
		// derivative notation: \frac{d}{dx}, \frac{d f}{dx}, \frac{\partial}{\partial x}
		diff := le-ls == 1 && p.toks[ls].kind == tDifferential
		partial := le-ls == 2 && p.toks[ls].kind == tSymbol && p.toks[ls].text == `\partial` &&
			(p.toks[ls+1].kind == tLetter || p.toks[ls+1].kind == tSymbol)
		if diff || partial {
			var wrt string
			if diff {
				wrt = differentialVar(p.toks[ls].text)
			} else {
				wrt = strings.TrimPrefix(p.toks[ls+1].text, `\`)
			}
			if diff && ue-us == 1 && p.toks[us].kind == tLetter && p.toks[us].text == "d" ||
				partial && ue-us == 1 && p.toks[us].kind == tSymbol && p.toks[us].text == `\partial` {
				return &Expr{op: "dop", kids: []*Expr{sym(wrt)}}
			}
			upperText := p.src[p.toks[us].start : p.toks[ue-1].start+len(p.toks[ue-1].text)]
			var top string
			if diff && strings.HasPrefix(upperText, "d") {
				top = upperText[1:]
			} else if partial && p.toks[us].text == `\partial` {
				top = upperText[len(`\partial`):]
			} else {
				goto plain
			}
			inner, err := Parse(top)
			if err != nil {
				panic(fatal{})
			}
			return &Expr{op: "deriv", name: wrt, kids: []*Expr{inner}}
		}
	}
plain:
	if upper.op == "dop" || lower.op == "dop" {
		panic(fatal{})
	}
	return mk("mul", upper, inv(lower))
}

var funcNames = map[string]string{
	`\arcsin`: "asin", `\arccos`: "acos", `\arctan`: "atan", `\arccsc`: "acsc", `\arcsec`: "asec", `\arccot`: "acot",
	`\arsinh`: "asinh", `\arcosh`: "acosh", `\artanh`: "atanh",
	`\sin`: "sin", `\cos`: "cos", `\tan`: "tan", `\csc`: "csc", `\sec`: "sec", `\cot`: "cot",
	`\sinh`: "sinh", `\cosh`: "cosh", `\tanh`: "tanh",
	`\exp`: "exp", `\log`: "log", `\lg`: "lg", `\ln`: "ln",
}

func (p *parser) function() *Expr {
	switch p.peek() {
	case tFuncNormal:
		return p.funcNormal()
	case tLetter, tSymbol:
		n, ok := p.name()
		if !ok || !p.accept(tLParen) {
			return nil
		}
		var args []*Expr
		for {
			a := p.expr()
			if a == nil {
				return nil
			}
			args = append(args, a)
			if p.peek() == tComma {
				save := p.pos
				p.pos++
				if p.peek() == tRParen {
					p.pos = save
					return nil
				}
				continue
			}
			break
		}
		if !p.accept(tRParen) {
			return nil
		}
		return &Expr{op: "ufn", name: n, kids: args}
	case tFuncSqrt:
		p.pos++
		var root *Expr
		if p.peek() == tLBracket {
			root = p.try(func() *Expr {
				p.pos++
				e := p.expr()
				if e == nil || !p.accept(tRBracket) {
					return nil
				}
				return e
			})
			if root == nil {
				return nil
			}
		}
		base := p.bracedExpr()
		if base == nil {
			return nil
		}
		if root != nil {
			return mk("pow", base, inv(root))
		}
		return mk("pow", base, num(big.NewRat(1, 2)))
	case tFuncOverline:
		p.pos++
		base := p.bracedExpr()
		if base == nil {
			return nil
		}
		return fn("conjugate", base)
	case tFuncInt, tFuncSum, tFuncProd, tFuncLim:
		return p.bigOperator()
	}
	return nil
}

func (p *parser) funcNormal() *Expr {
	start := p.pos
	if e := p.try(func() *Expr { return p.funcNormalDigits(false) }); e != nil {
		return e
	}
	p.pos = start
	return p.funcNormalDigits(true)
}

// funcNormalDigits parses func_normal; oneDigit reads a numeric sub- or
// superscript as one digit ("\log_2 8" is log(8, 2)).
func (p *parser) funcNormalDigits(oneDigit bool) *Expr {
	t := p.toks[p.pos]
	p.pos++
	script := func(f func() *Expr) *Expr {
		p.oneDigit = oneDigit && p.peekAt(p.pos+1).kind == tDigit
		e := p.try(f)
		p.oneDigit = false
		return e
	}
	var sub, sup *Expr
	if p.peek() == tUnderscore {
		sub = script(p.subexpr)
		if p.peek() == tCaret {
			sup = script(p.supexpr)
		}
	} else if p.peek() == tCaret {
		sup = script(p.supexpr)
		if p.peek() == tUnderscore {
			sub = script(p.subexpr)
		}
	}
	var arg *Expr
	if p.peek() == tLParen {
		arg = p.try(func() *Expr {
			p.pos++
			first := p.expr()
			if first == nil {
				return nil
			}
			for p.peek() == tComma {
				p.pos++
				if p.expr() == nil {
					return nil
				}
			}
			if !p.accept(tRParen) {
				return nil
			}
			return first
		})
	}
	if arg == nil {
		arg = p.mp(true)
	}
	if arg == nil {
		return nil
	}
	name := funcNames[t.text]
	var e *Expr
	switch name {
	case "log", "lg", "ln":
		var base *Expr
		switch {
		case sub != nil:
			base = sub
		case name == "lg":
			base = intNum(10)
		default:
			base = fn("E")
		}
		e = fn("log", arg, base)
	default:
		e = fn(name, arg)
	}
	shouldPow := true
	switch name {
	case "sin", "cos", "tan", "csc", "sec", "cot", "sinh", "cosh", "tanh":
		if sup != nil && isMinusOne(sup) {
			e = fn("a"+name, arg)
			shouldPow = false
		}
	}
	if sup != nil && shouldPow && !isZero(sup) {
		e = mk("pow", e, sup)
	}
	return e
}

func isMinusOne(e *Expr) bool {
	v, ok := exactValue(e)
	return ok && v.Cmp(big.NewRat(-1, 1)) == 0
}

func isZero(e *Expr) bool {
	v, ok := exactValue(e)
	return ok && v.Sign() == 0
}

// bigOperator parses \int, \sum, \prod and \lim as handle_integral,
// handle_sum_or_prod and handle_limit convert them.
func (p *parser) bigOperator() *Expr {
	start := p.pos
	k := p.toks[p.pos].kind
	p.pos++
	opaque := func() *Expr { return &Expr{op: "opaque", name: p.text(start, p.pos)} }
	switch k {
	case tFuncInt:
		var lo, hi *Expr
		if p.peek() == tUnderscore {
			if lo = p.try(p.subexpr); lo == nil {
				return nil
			}
			if hi = p.try(p.supexpr); hi == nil {
				return nil
			}
		} else if p.peek() == tCaret {
			if hi = p.try(p.supexpr); hi == nil {
				return nil
			}
			if lo = p.try(p.subexpr); lo == nil {
				return nil
			}
		}
		var integrand *Expr
		variable := ""
		if e := p.try(func() *Expr {
			body := p.try(p.additive)
			if p.peek() != tDifferential {
				return nil
			}
			variable = differentialVar(p.toks[p.pos].text)
			p.pos++
			if body == nil {
				body = intNum(1)
			}
			return body
		}); e != nil {
			integrand = e
		} else if e := p.try(p.frac); e != nil {
			integrand = e
		} else if e := p.additive(); e != nil {
			integrand = e
		} else {
			return nil
		}
		if variable == "" {
			// a symbol d<var> in the integrand names the variable (and is 1)
			var dsym string
			walk(integrand, func(x *Expr) {
				if x.op == "sym" && len(x.name) > 1 && x.name[0] == 'd' {
					dsym = x.name
				}
			})
			if dsym != "" {
				variable = strings.TrimPrefix(dsym[1:], `\`)
				integrand = subst(integrand, dsym, intNum(1))
			} else {
				variable = "x"
			}
		}
		if lo == nil {
			return opaque()
		}
		return &Expr{op: "int", name: variable, kids: []*Expr{integrand, lo, hi}}
	case tFuncSum, tFuncProd:
		var eq, end *Expr
		subeq := func() bool {
			save := p.pos
			if p.accept(tUnderscore) && p.accept(tLBrace) {
				if eq = p.equality(); eq != nil && p.accept(tRBrace) {
					return true
				}
			}
			p.pos = save
			return false
		}
		if p.peek() == tUnderscore {
			if !subeq() {
				return nil
			}
			if end = p.try(p.supexpr); end == nil {
				return nil
			}
		} else {
			if end = p.try(p.supexpr); end == nil || !subeq() {
				return nil
			}
		}
		body := p.mp(false)
		if body == nil {
			return nil
		}
		if eq.kids[0].op != "sym" {
			return opaque()
		}
		op := "sum"
		if k == tFuncProd {
			op = "prod"
		}
		return &Expr{op: op, name: eq.kids[0].name, kids: []*Expr{body, eq.kids[1], end}}
	case tFuncLim:
		if !p.accept(tUnderscore) || !p.accept(tLBrace) {
			return nil
		}
		vt := p.peekAt(p.pos)
		if !p.accept(tLetter) && !p.accept(tSymbol) {
			return nil
		}
		variable := vt.text
		if vt.kind == tSymbol {
			variable = vt.text[1:]
		}
		if !p.accept(tLimApproach) {
			return nil
		}
		to := p.expr()
		if to == nil {
			return nil
		}
		dir := "+-"
		if p.peek() == tCaret {
			save := p.pos
			p.pos++
			sign := func() bool {
				switch {
				case p.accept(tAdd):
					dir = "+"
				case p.accept(tSub):
					dir = "-"
				default:
					return false
				}
				return true
			}
			switch {
			case p.accept(tLBrace):
				if !sign() || !p.accept(tRBrace) {
					p.pos, dir = save, "+-"
				}
			case sign():
			default:
				p.pos = save
			}
		}
		if !p.accept(tRBrace) {
			return nil
		}
		body := p.mp(false)
		if body == nil {
			return nil
		}
		return &Expr{op: "lim", name: variable, name2: dir, kids: []*Expr{body, to}}
	}
	return nil
}

func walk(e *Expr, f func(*Expr)) {
	f(e)
	for _, k := range e.kids {
		walk(k, f)
	}
}

// subst replaces the symbol name in e by v.
func subst(e *Expr, name string, v *Expr) *Expr {
	if e.op == "sym" && e.name == name {
		return v
	}
	if len(e.kids) == 0 {
		return e
	}
	c := *e
	c.kids = make([]*Expr, len(e.kids))
	for i, k := range e.kids {
		c.kids[i] = subst(k, name, v)
	}
	return &c
}
