package sympylatex

import (
	"math"
	"math/big"
	"math/cmplx"
	"strings"
	"unicode"
)

// Accessors for packages that build their own comparison rules on parsed
// expressions (minerva_math's math_verify port).

// Op is the node kind: num, sym, inf, add, mul, pow, neg, fn, ufn, rel,
// opaque, dop, sum, prod, int, deriv, lim.
func (e *Expr) Op() string { return e.op }

// Name is the symbol, function or relation name.
func (e *Expr) Name() string { return e.name }

// Kids are the operands.
func (e *Expr) Kids() []*Expr { return e.kids }

// IsFloat reports a number written with a decimal point (a sympy Float).
func (e *Expr) IsFloat() bool { return e.op == "num" && e.flt }

// NewSym, NewMul, NewFn, NewNum, NewNeg and NewPow build nodes.
func NewSym(name string) *Expr             { return sym(name) }
func NewMul(a, b *Expr) *Expr              { return mk("mul", a, b) }
func NewAdd(a, b *Expr) *Expr              { return mk("add", a, b) }
func NewNeg(a *Expr) *Expr                 { return mk("neg", a) }
func NewPow(a, b *Expr) *Expr              { return mk("pow", a, b) }
func NewFn(name string, k ...*Expr) *Expr  { return fn(name, k...) }
func NewNum(r *big.Rat) *Expr              { return num(r) }
func NewFloat(r *big.Rat, sig int) *Expr   { return &Expr{op: "num", num: r, flt: true, sig: sig} }
func Sub(a, b *Expr) *Expr                 { return mk("add", a, mk("neg", b)) }
func (e *Expr) NumValue() (*big.Rat, bool) { return e.num, e.op == "num" }

// Rewrite rebuilds e bottom-up, applying f to every node after its kids.
func Rewrite(e *Expr, f func(*Expr) *Expr) *Expr {
	if e == nil {
		return nil
	}
	c := *e
	if len(e.kids) > 0 {
		c.kids = make([]*Expr, len(e.kids))
		for i, k := range e.kids {
			c.kids[i] = Rewrite(k, f)
		}
	}
	return f(&c)
}

// HasSymbol reports free symbols (or undefined functions).
func HasSymbol(e *Expr) bool { return hasSymbol(e) }

// Exact is e's exact rational value, where it is rational arithmetic.
func Exact(e *Expr) (*big.Rat, bool) { return exactValue(e) }

// Numeric is e's value when it has no free symbols.
func Numeric(e *Expr) (complex128, bool) {
	if hasSymbol(e) {
		return 0, false
	}
	v := newPoint(0).eval(e)
	if v.bad() {
		return 0, false
	}
	return v.c, true
}

// RoundEqual reports whether two numbers agree when rounded to digits
// decimal places (sympy's Float.round(digits) on both sides).
func RoundEqual(a, b *Expr, digits int) bool {
	va, ok1 := Numeric(a)
	vb, ok2 := Numeric(b)
	if !ok1 || !ok2 {
		return false
	}
	p := math.Pow(10, float64(digits))
	r := func(x float64) float64 { return math.RoundToEven(x*p) / p }
	if math.Abs(imag(va)) > 1e-12 || math.Abs(imag(vb)) > 1e-12 {
		return r(real(va)) == r(real(vb)) && r(imag(va)) == r(imag(vb))
	}
	return r(real(va)) == r(real(vb)) && !cmplx.IsNaN(va)
}

// ParseAll is Parse that also rejects input left over after the
// expression (sympy's ANTLR parser ignores it; latex2sympy2_extended's
// grammar does not).
func ParseAll(s string) (e *Expr, err error) {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
	toks, errAt := lex(s)
	if errAt >= 0 {
		return nil, ErrParse
	}
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
	if e == nil || p.peek() != tEOF {
		return nil, ErrParse
	}
	return e, nil
}
