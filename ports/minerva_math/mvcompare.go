package minerva_math

import (
	"math/big"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/sympylatex"
	"github.com/lmeval/lmeval/python/pyre"
)

// The comparison half of math_verify 0.8.0 (src/math_verify/grader.py,
// verify with float_rounding=6, numeric_precision=15, strict=True,
// allow_set_relation_comp=False).

func mvVerify(golds, preds []*mvVal) bool {
	for _, g := range golds {
		for _, p := range preds {
			if mvCompareSingle(g, p) {
				return true
			}
		}
	}
	return false
}

func mvCompareSingle(g, p *mvVal) bool {
	if g.kind == mvStr && p.kind == mvStr {
		a, b := pyre.Strip(g.s), pyre.Strip(p.s)
		return a != "" && b != "" && a == b
	}
	if g.kind == mvStr || p.kind == mvStr {
		return false
	}
	return mvExprEq(g, p)
}

func isRelation(v *mvVal) bool {
	if v.kind == mvRel {
		return true
	}
	return v.kind == mvAnd && len(v.elems) > 0
}

func isEquation(v *mvVal) bool {
	if v.kind == mvRel {
		return v.op == "="
	}
	if v.kind != mvAnd || len(v.elems) == 0 {
		return false
	}
	for _, r := range v.elems {
		if r.op != "=" {
			return false
		}
	}
	return true
}

func isAssignment(v *mvVal) bool {
	if !isEquation(v) {
		return false
	}
	first := v
	if v.kind == mvAnd {
		first = v.elems[0]
	}
	return first.lhs.kind == mvExpr && onlySymbols(first.lhs.e)
}

func firstRel(v *mvVal) *mvVal {
	if v.kind == mvAnd {
		return v.elems[0]
	}
	return v
}

func lastRel(v *mvVal) *mvVal {
	if v.kind == mvAnd {
		return lastRel(v.elems[len(v.elems)-1])
	}
	return v
}

func mvExprEq(g, p *mvVal) bool {
	ga, pa := isAssignment(g), isAssignment(p)
	ge, pe := isEquation(g), isEquation(p)
	if ga {
		g = &mvVal{kind: mvRel, op: "=", lhs: firstRel(g).lhs, rhs: lastRel(g).rhs}
	}
	if pa {
		p = &mvVal{kind: mvRel, op: "=", lhs: firstRel(p).lhs, rhs: lastRel(p).rhs}
	}
	if pe && !ge {
		p = lastRel(p).rhs
	} else if ga && !pe {
		g = lastRel(g).rhs
	}
	if isRelation(g) && p.isSet() {
		if s := relAsSet(g); s != nil {
			g = s
		}
	}
	if g.canon() == p.canon() && !(g.kind == mvExpr && hasNaN(g.e)) {
		return true
	}
	if isRelation(g) && isRelation(p) {
		return mvCompareRelational(g, p)
	}
	if g.isSet() || p.isSet() || g.kind == mvTuple || p.kind == mvTuple {
		return mvCompareSets(g, p)
	}
	if g.kind == mvMatrixK || p.kind == mvMatrixK {
		if g.kind != p.kind || g.cols != p.cols || len(g.elems) != len(p.elems) {
			return false
		}
		for i := range g.elems {
			if !mvExprEq(g.elems[i], p.elems[i]) {
				return false
			}
		}
		return true
	}
	if g.kind != mvExpr || p.kind != mvExpr {
		return false
	}
	if g.e.Op() == "sym" || p.e.Op() == "sym" {
		return mvCompareSymbols(g.e, p.e)
	}
	return mvNumericEq(g, p) || sympylatex.Equal(g.e, p.e)
}

func hasNaN(e *sympylatex.Expr) bool { return false }

func atomicNumber(v *mvVal) (isNum, isFloat bool) {
	e := v.e
	if v.pct {
		e = e.Kids()[0]
	}
	if e.Op() == "neg" && e.Kids()[0].Op() == "num" {
		e = e.Kids()[0]
	}
	return e.Op() == "num", e.IsFloat()
}

func mvNumericEq(g, p *mvVal) bool {
	gn, gf := atomicNumber(g)
	pn, pf := atomicNumber(p)
	if (gn || pn) && (gf || pf) {
		return sympylatex.RoundEqual(g.e, p.e, 6)
	}
	return false
}

func symbolConcat(e *sympylatex.Expr) (string, bool) {
	if isEuler(e) {
		return "e", true
	}
	switch e.Op() {
	case "sym":
		return e.Name(), true
	case "mul":
		var b strings.Builder
		for _, k := range e.Kids() {
			s, ok := symbolConcat(k)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	}
	return "", false
}

func mvCompareSymbols(g, p *sympylatex.Expr) bool {
	if (g.Op() == "sym" && strings.ToLower(g.Name()) == "e" && isEuler(p)) || (p.Op() == "sym" && strings.ToLower(p.Name()) == "e" && isEuler(g)) {
		return true
	}
	if g.Op() == "sym" && p.Op() == "mul" {
		if s, ok := symbolConcat(p); ok {
			return strings.ToLower(g.Name()) == strings.ToLower(s)
		}
	}
	if p.Op() == "sym" && g.Op() == "mul" {
		if s, ok := symbolConcat(g); ok {
			return strings.ToLower(p.Name()) == strings.ToLower(s)
		}
	}
	if g.Op() == "sym" && p.Op() == "sym" {
		return strings.ToLower(g.Name()) == strings.ToLower(p.Name())
	}
	return false
}

var inverseRel = map[string]string{">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "="}

func diff(a, b *mvVal) *mvVal {
	if a.kind != mvExpr || b.kind != mvExpr {
		return nil
	}
	return exprVal(sympylatex.Sub(a.e, b.e))
}

func mvCompareRelational(g, p *mvVal) bool {
	if g.kind == mvAnd && p.kind == mvAnd {
		if len(g.elems) != len(p.elems) {
			return false
		}
		for i := range g.elems {
			if !mvCompareRelational(g.elems[i], p.elems[i]) {
				return false
			}
		}
		return true
	}
	if g.kind != mvRel || p.kind != mvRel {
		return false
	}
	if g.op == p.op {
		if a, b := diff(g.lhs, g.rhs), diff(p.lhs, p.rhs); a != nil && b != nil && mvExprEq(a, b) {
			return true
		}
	}
	if inverseRel[g.op] == p.op {
		if a, b := diff(g.lhs, g.rhs), diff(p.rhs, p.lhs); a != nil && b != nil && mvExprEq(a, b) {
			return true
		}
	}
	return false
}

// relAsSet is Relational.as_set() for one variable against numbers.
func relAsSet(v *mvVal) *mvVal {
	rels := []*mvVal{v}
	if v.kind == mvAnd {
		rels = v.elems
	}
	var lo, hi *sympylatex.Expr
	lopen, ropen := true, true
	variable := ""
	for _, r := range rels {
		if r.lhs.kind != mvExpr || r.rhs.kind != mvExpr {
			return nil
		}
		op, a, b := r.op, r.lhs.e, r.rhs.e
		if b.Op() == "sym" && a.Op() != "sym" {
			op, a, b = inverseRel[op], b, a
		}
		if a.Op() != "sym" || sympylatex.HasSymbol(b) || (variable != "" && variable != a.Name()) {
			return nil
		}
		variable = a.Name()
		switch op {
		case "<", "<=":
			hi, ropen = b, op == "<"
		case ">", ">=":
			lo, lopen = b, op == ">"
		default:
			return nil
		}
	}
	inf := mustParse(`\infty`)
	if lo == nil {
		lo, lopen = sympylatex.NewNeg(inf), true
	}
	if hi == nil {
		hi, ropen = inf, true
	}
	return &mvVal{kind: mvInterval, elems: []*mvVal{exprVal(lo), exprVal(hi)}, lopen: lopen, ropen: ropen}
}

func mustParse(s string) *sympylatex.Expr {
	e, err := sympylatex.Parse(s)
	if err != nil {
		panic(err)
	}
	return e
}

func mvCompareSets(g, p *mvVal) bool {
	a, b := g, p
	if !a.isSet() && a.kind != mvTuple {
		a = &mvVal{kind: mvSet, elems: []*mvVal{g}}
	}
	if !b.isSet() && b.kind != mvTuple {
		b = &mvVal{kind: mvSet, elems: []*mvVal{p}}
	}
	if a.kind == mvInterval && b.kind == mvInterval {
		return a.lopen == b.lopen && a.ropen == b.ropen && mvExprEq(a.elems[0], b.elems[0]) && mvExprEq(a.elems[1], b.elems[1])
	}
	if a.canon() == b.canon() {
		return true
	}
	if a.kind == mvSet && b.kind == mvSet && numericSetEq(a, b) {
		return true
	}
	seq := func(v *mvVal) bool { return v.kind == mvSet || v.kind == mvTuple }
	if seq(a) && seq(b) {
		return mvDeepCompare(a, b)
	}
	if a.kind == mvInterval && seq(b) && a.lopen && a.ropen && len(b.elems) == 2 {
		return mvDeepCompare(&mvVal{kind: mvTuple, elems: a.elems}, b)
	}
	if b.kind == mvInterval && seq(a) && b.lopen && b.ropen && len(a.elems) == 2 {
		return mvDeepCompare(a, &mvVal{kind: mvTuple, elems: b.elems})
	}
	return false
}

// numericSetEq: FiniteSets of numbers are equal as sets of values.
func numericSetEq(a, b *mvVal) bool {
	vals := func(v *mvVal) ([]*big.Rat, bool) {
		var out []*big.Rat
		for _, e := range v.elems {
			if e.kind != mvExpr {
				return nil, false
			}
			r, ok := sympylatex.Exact(e.e)
			if !ok {
				return nil, false
			}
			out = append(out, r)
		}
		return out, true
	}
	x, ok1 := vals(a)
	y, ok2 := vals(b)
	if !ok1 || !ok2 {
		return false
	}
	in := func(r *big.Rat, s []*big.Rat) bool {
		for _, t := range s {
			if r.Cmp(t) == 0 {
				return true
			}
		}
		return false
	}
	for _, r := range x {
		if !in(r, y) {
			return false
		}
	}
	for _, r := range y {
		if !in(r, x) {
			return false
		}
	}
	return true
}

func sortedElems(v *mvVal) []*mvVal {
	out := append([]*mvVal{}, v.elems...)
	key := func(e *mvVal) (int, float64, string) {
		u := e
		if isAssignment(u) {
			u = lastRel(u).rhs
		}
		if u.kind == mvExpr {
			if c, ok := sympylatex.Numeric(u.e); ok && imag(c) == 0 {
				return 0, real(c), ""
			}
		}
		return 1, 0, u.canon()
	}
	sort.SliceStable(out, func(i, j int) bool {
		ci, fi, si := key(out[i])
		cj, fj, sj := key(out[j])
		if ci != cj {
			return ci < cj
		}
		if fi != fj {
			return fi < fj
		}
		return si < sj
	})
	return out
}

func mvDeepCompare(g, p *mvVal) bool {
	if len(g.elems) != len(p.elems) {
		return false
	}
	ga, pa := g.elems, p.elems
	switch {
	case g.kind == mvSet:
		ga, pa = sortedElems(g), sortedElems(p)
	case g.kind == mvTuple && p.kind == mvSet:
	case p.kind == mvSet:
		pa = sortedElems(p)
	}
	for i := range ga {
		if !mvExprEq(ga[i], pa[i]) {
			return false
		}
	}
	return true
}
