package minerva_math

import (
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/sympylatex"
	"github.com/lmeval/lmeval/python/pyre"
)

// Values standing for the sympy objects math_verify compares: the strings
// parse() appends as fallbacks, expressions, FiniteSet, Tuple, Interval,
// relations and their And chains, and unions of sets.

type mvKind int

const (
	mvStr mvKind = iota
	mvExpr
	mvSet
	mvTuple
	mvInterval
	mvRel
	mvAnd
	mvUnion
	mvMatrixK
)

type mvVal struct {
	kind         mvKind
	s            string           // mvStr
	e            *sympylatex.Expr // mvExpr
	pct          bool             // mvExpr: X*Rational(1,100)
	elems        []*mvVal         // set, tuple, interval (start, end), and, union
	lopen, ropen bool             // interval
	op           string           // rel: = < <= > >=
	lhs, rhs     *mvVal           // rel
	cols         int              // matrix: elems row by row
}

func exprVal(e *sympylatex.Expr) *mvVal { return &mvVal{kind: mvExpr, e: e} }

func (v *mvVal) percent() *mvVal {
	if v.kind != mvExpr {
		return nil
	}
	return &mvVal{kind: mvExpr, e: sympylatex.NewMul(v.e, sympylatex.NewNum(big.NewRat(1, 100))), pct: true}
}

func (v *mvVal) isSet() bool { return v.kind == mvSet || v.kind == mvInterval || v.kind == mvUnion }

func (v *mvVal) canon() string {
	switch v.kind {
	case mvStr:
		return "str:" + v.s
	case mvExpr:
		return v.e.String()
	case mvRel:
		return "rel" + v.op + "(" + v.lhs.canon() + "," + v.rhs.canon() + ")"
	case mvInterval:
		return "interval(" + v.elems[0].canon() + "," + v.elems[1].canon() + "," + boolS(v.lopen) + boolS(v.ropen) + ")"
	}
	if v.kind == mvMatrixK {
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = e.canon()
		}
		return "matrix" + strconv.Itoa(v.cols) + "(" + strings.Join(parts, ",") + ")"
	}
	parts := make([]string, len(v.elems))
	for i, e := range v.elems {
		parts[i] = e.canon()
	}
	if v.kind == mvSet || v.kind == mvUnion {
		sort.Strings(parts)
	}
	return [...]string{"", "", "set", "tuple", "", "", "and", "union"}[v.kind] + "(" + strings.Join(parts, ",") + ")"
}

func boolS(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// mvNumber is sympy.Number(s) for a plain decimal.
func mvNumber(s string) *mvVal {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	if strings.Contains(s, ".") {
		return exprVal(sympylatex.NewFloat(r, 15))
	}
	return exprVal(sympylatex.NewNum(r))
}

// mvPyExpr is sympy's parse_expr(expr.replace("^", "**"), evaluate=False)
// on the arithmetic ExprExtractionConfig extracts: numbers, + - * / ^
// and parentheses (× and ÷ are not Python, a number followed by "(" is a
// call of a number): nil where Python would not parse it.
func mvPyExpr(s string) *mvVal {
	p := &pyParser{s: s}
	e := p.expr()
	p.skip()
	if e == nil || p.err || p.i != len(p.s) {
		return nil
	}
	return exprVal(e)
}

type pyParser struct {
	s   string
	i   int
	err bool
}

func (p *pyParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *pyParser) peek(t string) bool {
	p.skip()
	return strings.HasPrefix(p.s[p.i:], t)
}

func (p *pyParser) expr() *sympylatex.Expr {
	l := p.term()
	for l != nil {
		if p.peek("+") {
			p.i++
			r := p.term()
			if r == nil {
				return nil
			}
			l = sympylatex.NewAdd(l, r)
		} else if p.peek("-") {
			p.i++
			r := p.term()
			if r == nil {
				return nil
			}
			l = sympylatex.Sub(l, r)
		} else {
			break
		}
	}
	return l
}

func (p *pyParser) term() *sympylatex.Expr {
	l := p.factor()
	for l != nil {
		if p.peek("**") {
			break
		} else if p.peek("*") {
			p.i++
			r := p.factor()
			if r == nil {
				return nil
			}
			l = sympylatex.NewMul(l, r)
		} else if p.peek("/") {
			p.i++
			r := p.factor()
			if r == nil {
				return nil
			}
			l = sympylatex.NewMul(l, sympylatex.NewPow(r, sympylatex.NewNum(big.NewRat(-1, 1))))
		} else {
			break
		}
	}
	return l
}

func (p *pyParser) factor() *sympylatex.Expr {
	if p.peek("-") {
		p.i++
		f := p.factor()
		if f == nil {
			return nil
		}
		return sympylatex.NewNeg(f)
	}
	if p.peek("+") {
		p.i++
		return p.factor()
	}
	a := p.atom()
	if a == nil {
		return nil
	}
	if p.peek("**") {
		p.i += 2
		b := p.factor()
		if b == nil {
			return nil
		}
		return sympylatex.NewPow(a, b)
	}
	return a
}

var pyNumRe = regexp.MustCompile(`^(?:\d+\.?\d*|\.\d+)`)

func (p *pyParser) atom() *sympylatex.Expr {
	p.skip()
	var a *sympylatex.Expr
	if p.peek("(") {
		p.i++
		a = p.expr()
		if a == nil || !p.peek(")") {
			p.err = true
			return nil
		}
		p.i++
	} else if m := pyNumRe.FindString(p.s[p.i:]); m != "" {
		p.i += len(m)
		v := mvNumber(m)
		if v == nil {
			return nil
		}
		a = v.e
	} else {
		p.err = true
		return nil
	}
	// a call or two adjacent numbers is not arithmetic
	if p.peek("(") || (p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.')) {
		p.err = true
		return nil
	}
	return a
}

var (
	mvCommaNumberRe = pyre.MustCompile(`^\s*-?\d{1,3}(,\d{3})+(\.\d+)?\s*$`)
	mvEqSplitRe     = pyre.MustCompile(`(?<!\\|\<|\!|\>)=`)
)

// parse_latex_cached: latex2sympy, then the last "=" part of a chain.
func mvParseLatex(s string) *mvVal {
	if v := mvConvert(s); v != nil {
		return v
	}
	if !strings.Contains(s, ",") && !strings.Contains(s, ";") {
		parts := splitPy(mvEqSplitRe, s)
		if len(parts) > 2 {
			return mvConvert(parts[len(parts)-1])
		}
	}
	return nil
}

func splitPy(re *pyre.Regexp, s string) []string {
	var out []string
	last := 0
	for _, m := range re.FindAll(s) {
		out = append(out, s[last:m.Start()])
		last = m.End()
	}
	return append(out, s[last:])
}
