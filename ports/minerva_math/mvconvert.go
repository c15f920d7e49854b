package minerva_math

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/sympylatex"
)

// mvConvert stands for latex2sympy2_extended's latex2sympy on a normalised
// answer: its top level (set elements, relations, \in, intervals, tuples,
// \{\} sets, unions) is read here, each expression with package
// sympylatex, after the PS.g4 readings that differ from sympy's grammar
// (\text{} as one lower-cased symbol, every symbol lower-cased, e as
// Euler's number, x(x+1) as a product, degrees ignored, 5\% as 5/100).
func mvConvert(s string) *mvVal {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if mvCommaNumberRe.Match(s) != nil {
		t := strings.TrimSpace(s)
		if strings.HasPrefix(t, "0") {
			t = strings.Replace(t, ",", ".", 1)
		}
		t = strings.TrimLeft(strings.ReplaceAll(t, ",", ""), "0")
		if t == "" || t[0] == '.' {
			t = "0" + t
		}
		return mvNumber(t)
	}
	parts := splitDepth0(s, ",;")
	if len(parts) > 1 {
		set := &mvVal{kind: mvSet}
		for _, p := range parts {
			v := mvRelLevel(p)
			if v == nil {
				return nil
			}
			set.elems = append(set.elems, v)
		}
		return set
	}
	return mvRelLevel(s)
}

// depth0 calls f at each byte offset outside brackets.
func depth0(s string, f func(i int) int) {
	d := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) && !isASCIILetter(s[i+1]) {
			switch s[i+1] {
			case '{':
				d++
			case '}':
				d--
			}
			i += 2
			continue
		}
		switch c {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		}
		if d == 0 {
			if n := f(i); n > 0 {
				i += n
				continue
			}
		}
		i++
	}
}

func splitDepth0(s, seps string) []string {
	var out []string
	last := 0
	depth0(s, func(i int) int {
		if strings.IndexByte(seps, s[i]) >= 0 {
			out = append(out, s[last:i])
			last = i + 1
		}
		return 0
	})
	return append(out, s[last:])
}

var cmdRe = regexp.MustCompile(`^\\[a-zA-Z]+`)

var relCmds = map[string]string{
	`\le`: "<=", `\leq`: "<=", `\leqslant`: "<=", `\ge`: ">=", `\geq`: ">=", `\geqslant`: ">=",
	`\lt`: "<", `\gt`: ">", `\in`: "in", `\neq`: "!=", `\ne`: "!=", `\approx`: "approx",
}

// relSplit finds the relations outside brackets.
func relSplit(s string) (operands []string, ops []string) {
	last := 0
	depth0(s, func(i int) int {
		c := s[i]
		op, n := "", 0
		switch {
		case c == '<' || c == '>':
			op, n = string(c), 1
			if i+1 < len(s) && s[i+1] == '=' {
				op, n = op+"=", 2
			}
		case c == '=' && (i == 0 || s[i-1] != '\\'):
			op, n = "=", 1
		case c == '\\':
			if m := cmdRe.FindString(s[i:]); m != "" {
				if r, ok := relCmds[m]; ok {
					op, n = r, len(m)
				} else {
					return len(m)
				}
			}
		}
		if op == "" {
			return 0
		}
		operands = append(operands, s[last:i])
		ops = append(ops, op)
		last = i + n
		return n
	})
	return append(operands, s[last:]), ops
}

func mvRelLevel(s string) *mvVal {
	operands, ops := relSplit(s)
	if len(ops) == 0 {
		return mvSetLevel(s)
	}
	vals := make([]*mvVal, len(operands))
	for i, o := range operands {
		if vals[i] = mvSetLevel(o); vals[i] == nil {
			return nil
		}
	}
	for _, op := range ops {
		if op == "in" && len(ops) > 1 {
			// x = x\in[1,2] is Eq(x, Eq(x, Interval(1, 2)))
			return &mvVal{kind: mvRel, op: "=", lhs: vals[0], rhs: mvRelLevel(s[len(operands[0])+1:])}
		}
	}
	// sets appear in a relation only as PS.g4's set_elements_relation:
	// symbols, then = or \in, then the set
	for i, v := range vals {
		if v.isSet() || v.kind == mvTuple || v.kind == mvMatrixK {
			if v.kind == mvMatrixK && i > 0 {
				continue
			}
			if i != 1 || len(ops) != 1 || (ops[0] != "=" && ops[0] != "in") || vals[0].kind != mvExpr || !onlySymbols(vals[0].e) {
				return nil
			}
		}
	}
	var rels []*mvVal
	cur := vals[0]
	for i, op := range ops {
		rhs := vals[i+1]
		switch op {
		case "in":
			op = "="
		case "approx":
			if len(rels) == 0 && cur.kind == mvExpr && onlySymbols(cur.e) {
				cur = rhs
			}
			continue
		case "!=":
			return nil
		}
		if len(rels) > 0 {
			cur = rels[len(rels)-1].rhs
		}
		rels = append(rels, &mvVal{kind: mvRel, op: op, lhs: cur, rhs: rhs})
	}
	if len(rels) == 0 {
		return cur
	}
	if len(rels) == 1 {
		return rels[0]
	}
	return &mvVal{kind: mvAnd, elems: rels}
}

// enclosed reports whether s[0] opens a bracket closed by its last byte.
func enclosed(s string) bool {
	closedAt := -1
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
			if d == 0 && closedAt < 0 {
				closedAt = i
			}
		}
	}
	return closedAt == len(s)-1
}

func mvSetLevel(s string) *mvVal {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var pieces []string
	last := 0
	depth0(s, func(i int) int {
		if strings.HasPrefix(s[i:], `\cup`) {
			pieces = append(pieces, s[last:i])
			last = i + 4
			return 4
		}
		return 0
	})
	if len(pieces) > 0 {
		pieces = append(pieces, s[last:])
		u := &mvVal{kind: mvUnion}
		for _, p := range pieces {
			v := mvSetAtom(strings.TrimSpace(p))
			if v == nil {
				return nil
			}
			if v.kind == mvTuple {
				v = &mvVal{kind: mvSet, elems: v.elems}
			}
			u.elems = append(u.elems, v)
		}
		return u
	}
	return mvSetAtom(s)
}

func mvSetAtom(s string) *mvVal {
	if m := mvMatrix(s); m != nil {
		return m
	}
	if len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && enclosed(s) && len(splitDepth0(s[1:len(s)-1], ",;")) == 1 {
		inner := s[1 : len(s)-1]
		if _, ops := relSplit(inner); hasOp(ops, "in") {
			return nil // a set relation is only read at the top level
		}
		return mvConvert(inner)
	}
	if strings.HasPrefix(s, `\{`) && strings.HasSuffix(s, `\}`) && len(s) >= 4 {
		inner := s[2 : len(s)-2]
		set := &mvVal{kind: mvSet}
		if strings.TrimSpace(inner) != "" {
			for _, p := range splitDepth0(inner, ",;") {
				v := mvRelLevel(p)
				if v == nil {
					return nil
				}
				set.elems = append(set.elems, v)
			}
		}
		return set
	}
	if len(s) >= 2 && strings.IndexByte("([", s[0]) >= 0 && strings.IndexByte(")]", s[len(s)-1]) >= 0 && enclosed(s) {
		parts := splitDepth0(s[1:len(s)-1], ",")
		if len(parts) >= 2 {
			vals := make([]*mvVal, len(parts))
			for i, p := range parts {
				if vals[i] = mvScalar(p); vals[i] == nil {
					return nil
				}
			}
			lo, ro := s[0] == '(', s[len(s)-1] == ')'
			if len(parts) == 2 {
				if degenerate(vals[0], vals[1], lo && ro) {
					return &mvVal{kind: mvTuple, elems: vals}
				}
				return &mvVal{kind: mvInterval, elems: vals, lopen: lo, ropen: ro}
			}
			return &mvVal{kind: mvTuple, elems: vals}
		}
	}
	return mvScalar(s)
}

// degenerate: an interval that would be empty is read as a tuple.
func degenerate(a, b *mvVal, open bool) bool {
	x, ok1 := sympylatex.Numeric(a.e)
	y, ok2 := sympylatex.Numeric(b.e)
	if !ok1 || !ok2 || imag(x) != 0 || imag(y) != 0 {
		return false
	}
	if open {
		return real(y) <= real(x)
	}
	return real(y) < real(x)
}

var (
	mvDegreeRe  = regexp.MustCompile(`\^\s*(?:\\circ|\\degree|\\circle|°|\{\\circ\}|\{\\degree\}|\{\\circle\}|\{°\})`)
	mvTextCmdRe = regexp.MustCompile(`\\(?:text|mbox|textit|textbf|textnormal|mathrm|mathit|mathbf)\s*\{([^{}]*)\}`)
	mvPctNumRe  = regexp.MustCompile(`^-?[0-9][0-9,]*(?:\.[0-9]+)?\s*\\?%$`)
)

func mvScalar(s string) *mvVal {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	s = strings.TrimSpace(mvDegreeRe.ReplaceAllString(s, ""))
	if mvPctNumRe.MatchString(s) {
		neg := strings.HasPrefix(s, "-")
		t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(s, "-"), "%"), `\`))
		v := mvNumber(strings.ReplaceAll(t, ",", ""))
		if v == nil {
			return nil
		}
		v = v.percent()
		if neg {
			v = exprVal(sympylatex.NewNeg(v.e))
		}
		return v
	}
	// \text{...} is one symbol: its text without spaces and parentheses
	texts := map[string]string{}
	s = mvTextCmdRe.ReplaceAllStringFunc(s, func(m string) string {
		inner := mvTextCmdRe.FindStringSubmatch(m)[1]
		inner = strings.NewReplacer(" ", "", "(", "", ")", "").Replace(inner)
		if inner == "" {
			return ""
		}
		key := "omega_{" + strconv.Itoa(9000+len(texts)) + "}"
		texts[key] = strings.ToLower(inner)
		return ` \omega_{` + strconv.Itoa(9000+len(texts)-1) + `} `
	})
	s = mvTimesXRe.ReplaceAllString(s, `$1\cdot x\cdot $2`)
	// commands outside PS.g4's vocabulary: the lexer takes the longest
	// command it knows (\lfloorx is \lfloor x), else the answer fails
	bad := false
	s = cmdAnyRe.ReplaceAllStringFunc(s, func(c string) string {
		name := c[1:]
		if mvGrammarCmds[name] || name == "circ" || name == "degree" || name == "circle" {
			return c
		}
		for k := len(name) - 1; k > 0; k-- {
			if mvGrammarCmds[name[:k]] {
				return `\` + name[:k] + " " + name[k:]
			}
		}
		bad = true
		return c
	})
	if bad {
		return nil
	}
	e, err := sympylatex.ParseAll(s)
	if err != nil || e.Op() == "rel" {
		return nil
	}
	e = mvPost(e)
	if len(texts) > 0 {
		e = sympylatex.Rewrite(e, func(n *sympylatex.Expr) *sympylatex.Expr {
			if n.Op() == "sym" {
				if t, ok := texts[n.Name()]; ok {
					return sympylatex.NewSym(t)
				}
			}
			return n
		})
	}
	return exprVal(e)
}

var (
	mvTimesXRe = regexp.MustCompile(`(\d)\s*x\s*(\d)`)
	cmdAnyRe   = regexp.MustCompile(`\\[a-zA-Z]+`)
	mvMatrixRe = regexp.MustCompile(`^\\begin\{([pbvB]?matrix)\}(.*)\\end\{([pbvB]?matrix)\}$`)
)

// mvMatrix reads \begin{pmatrix}a&b\\c&d\end{pmatrix} (a trailing degree
// sign is ignored).
func mvMatrix(s string) *mvVal {
	s = strings.TrimSpace(mvDegreeRe.ReplaceAllString(s, ""))
	m := mvMatrixRe.FindStringSubmatch(s)
	if m == nil || m[1] != m[3] || strings.Contains(m[2], `\begin`) {
		return nil
	}
	v := &mvVal{kind: mvMatrixK}
	for _, row := range strings.Split(m[2], `\\`) {
		if strings.TrimSpace(row) == "" {
			continue
		}
		cells := strings.Split(row, "&")
		if v.cols == 0 {
			v.cols = len(cells)
		} else if v.cols != len(cells) {
			return nil
		}
		for _, c := range cells {
			e := mvScalar(c)
			if e == nil {
				return nil
			}
			v.elems = append(v.elems, e)
		}
	}
	if len(v.elems) == 0 {
		return nil
	}
	return v
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var eulerE = sympylatex.NewFn("exp", sympylatex.NewNum(big.NewRat(1, 1)))

// mvPost applies PS.g4's readings to sympy's parse.
func mvPost(e *sympylatex.Expr) *sympylatex.Expr {
	return sympylatex.Rewrite(e, func(n *sympylatex.Expr) *sympylatex.Expr {
		switch n.Op() {
		case "sym":
			name := strings.ToLower(n.Name())
			if name == "e" {
				return eulerE
			}
			return sympylatex.NewSym(name)
		case "ufn":
			k := n.Kids()
			if len(k) == 1 && k[0].Op() != "num" && k[0].Op() != "sym" {
				return sympylatex.NewMul(sympylatex.NewSym(strings.ToLower(n.Name())), k[0])
			}
		}
		return n
	})
}

func onlySymbols(e *sympylatex.Expr) bool {
	switch e.Op() {
	case "sym":
		return true
	case "num", "inf":
		return false
	case "pow":
		k := e.Kids()
		if r, ok := k[1].NumValue(); ok && r.Cmp(big.NewRat(-1, 1)) == 0 && onlySymbols(k[0]) {
			return true
		}
	}
	if isEuler(e) || len(e.Kids()) == 0 {
		return false
	}
	for _, k := range e.Kids() {
		if !onlySymbols(k) {
			return false
		}
	}
	return true
}

func hasOp(ops []string, op string) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

// isEuler reports sympy's E (exp(1)), however often the tree was rebuilt.
func isEuler(e *sympylatex.Expr) bool {
	if e.Op() != "fn" || e.Name() != "exp" || len(e.Kids()) != 1 {
		return false
	}
	r, ok := e.Kids()[0].NumValue()
	return ok && r.Cmp(big.NewRat(1, 1)) == 0 && !e.Kids()[0].IsFloat()
}
