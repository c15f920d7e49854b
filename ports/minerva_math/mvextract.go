package minerva_math

import (
	"sort"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/python/pyre"
)

// The extraction half of Hugging Face math_verify 0.8.0
// (src/math_verify/parser.py): the same regular expressions, priorities
// and match order, with parse()'s defaults as lm-eval calls it
// (fallback_mode="first_match", extraction_mode="any_match").

type mvPattern struct {
	re       *pyre.Regexp
	priority int
	latex    bool // LatexExtractionConfig, else ExprExtractionConfig
	names    []string
}

func compileMV(src string, flags int, prio int, latex bool) mvPattern {
	re, err := pyre.CompileFlags(src, flags)
	if err != nil {
		panic("math_verify pattern: " + err.Error())
	}
	gi := re.GroupIndex()
	names := make([]string, 0, len(gi))
	for n := range gi {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return gi[names[i]] < gi[names[j]] })
	return mvPattern{re: re, priority: prio, latex: latex, names: names}
}

// lazy_expr_regex
func mvExprRegexes() []mvPattern {
	numberRe := `(?<!\d)(?:` +
		`(?P<integer1>-?[1-9]\d{0,2}(?:[ ,]\d{3})+)(?P<decimal1>\.\d+)?|` +
		`(?P<integer2>-?\d+)(?P<decimal2>[.,]\d+)|` +
		`(?P<decimal3>\.\d+)|` +
		`(?P<integer3>-?\d+)` +
		`)(?P<percent>\s*(?:%|[Pp]ercent|\s*[Pp]ercentage|\s*[Pp]ct))?`
	operatorsRe := `\+\-\*\×\/\^\(\)\÷`
	allExprChars := `[\d\.\s` + operatorsRe + `]`
	exprRe := `(?P<expr>-?\(?-?\d` + allExprChars + `*[` + operatorsRe + `]` + allExprChars + `+\)?)`
	currency := pyre.Escape("$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₩₪₫₭₮₯₰₱₲₳₴₵₶₷₸₹₺₻₼₽₾₿")
	exprPrefix := `(?:^|\s|\=)(?:\*\*)?`
	exprSuffix := `(?:\*\*)?(?:\.|,|:|\s|\)|\$|$)`
	exprWithAnchors := `(?:` + exprPrefix + exprRe + exprSuffix + `)`
	numberWithAnchors := `(?:` + exprPrefix + `[` + currency + `]?` + numberRe + `)`
	exprOrNumber := `(?:` + exprWithAnchors + `|` + numberWithAnchors + `)`
	var out []mvPattern
	add := func(s string, p int) { out = append(out, compileMV(s, 0, p, false)) }
	add(`(?i:final answer is)\:?\s*`+exprOrNumber+`\.?\s?I hope`, 0)
	add(`(?i:final answer.{0,100}?)\s+is\:?`+exprOrNumber, 50)
	answer := `(?i:answer)`
	add(answer+`:(?:.{0,100}=\s*|.{0,50}?)`+exprOrNumber+`(?!\s*=)`, 100)
	add(answer+`(?:.{0,100}=\s*|.{0,50}?)`+exprOrNumber+`(?!\s*=)`, 200)
	add(exprWithAnchors, 300)
	add(numberWithAnchors, 300)
	return out
}

// make_latex_env_pattern
func mvLatexEnv(prefix string, boxed bool) string {
	percent := `(?P<` + prefix + `percent>(?:\\?%|[Pp]ercent|[Pp]ercentage|[Pp]ct))`
	dd := `(?:[^$]|\$(?!\$))`
	db := `(?:[^\\]|\\(?!\]))`
	id := `(?:\\[$]|[^\n$])`
	ip := `(?:[^\\\n]|\\(?!\)))`
	ib := `[^\n\]\[]`
	if boxed {
		bx := func(c string) string { return c + `*?\\boxed{` + c + `+?}` + c + `*?` }
		dd, db, id, ip, ib = bx(dd), bx(db), bx(id), bx(ip), bx(ib)
	} else {
		dd, db, id, ip, ib = dd+`+?`, db+`+?`, id+`+?`, ip+`+?`, ib+`+?`
	}
	pats := []string{
		`(?<!\\)\$\$(?P<` + prefix + `latexDisplayDollar>` + dd + `)(?<!\\)\$\$`,
		`(?<!\\)\\\[(?P<` + prefix + `latexDisplayBracket>` + db + `)(?<!\\)\\\]`,
		`(?<!\\|\d)\$(?P<` + prefix + `latexInlineDollar>` + id + `)(?<!\\)\$`,
		`(?<!\\)\\\((?P<` + prefix + `latexInlineParenthesis>` + ip + `)(?<!\\)\\\)`,
		`\s\[(?P<` + prefix + `latexInlineBracket>` + ib + `)\]\s`,
	}
	if !boxed {
		simple := `-?\d+(?:[.,]\d+)?`
		pats = append(pats, `(?P<`+prefix+`latexFraction>-?\\frac{`+simple+`}{`+simple+`})`)
	}
	return `(?:(?:` + strings.Join(pats, "|") + `)\s*` + percent + `?)`
}

// lazy_latex_regex (try_extract_without_anchor, boxed_match_priority 50)
func mvLatexRegexes() []mvPattern {
	next := ""
	for i := 1; i <= 5; i++ {
		next += `(?:\s*(?:,?and|,?or|,)\s*` + mvLatexEnv("next"+itoa(i)+"_", false) + `)?`
	}
	latexRe := `(?:` + mvLatexEnv("first_", false) + next + `)`
	var out []mvPattern
	add := func(s string, p int) { out = append(out, compileMV(s, pyre.DOTALL, p, true)) }
	add(`(?i:final answer is)\:?\s*`+latexRe+`\.?\s?I hope`, 0)
	add(`(?i:final answer.{0,100}?)\s+is\:?\s*`+latexRe, 50)
	add(`(?i:answer):.{0,50}?`+latexRe, 100)
	add(`(?i:answer).{0,50}?`+latexRe, 200)
	add(latexRe, 300)
	boxed := mvLatexEnv("first_", true)
	for i := 1; i <= 5; i++ {
		boxed += `\s*(?:\s*(?:,?and|,?or|,)\s*` + mvLatexEnv("next"+itoa(i)+"_", true) + `)?`
	}
	add(boxed, 50)
	add(`(?P<first_latexBoxed>\\boxed{.+})`, 50)
	return out
}

func itoa(i int) string { return string(rune('0' + i)) }

var (
	mvOnce              sync.Once
	mvDefaultPatterns   []mvPattern // [LatexExtractionConfig(), ExprExtractionConfig()]
	mvLatexOnlyPatterns []mvPattern // [LatexExtractionConfig()]
)

func mvPatterns(latexOnly bool) []mvPattern {
	mvOnce.Do(func() {
		l, e := mvLatexRegexes(), mvExprRegexes()
		mvLatexOnlyPatterns = sortPatterns(l)
		mvDefaultPatterns = sortPatterns(append(append([]mvPattern{}, l...), e...))
	})
	if latexOnly {
		return mvLatexOnlyPatterns
	}
	return mvDefaultPatterns
}

func sortPatterns(p []mvPattern) []mvPattern {
	sort.SliceStable(p, func(i, j int) bool { return p[i].priority < p[j].priority })
	return p
}

type mvMatch struct {
	m   *pyre.Match
	pat *mvPattern
}

func (mm mvMatch) group(name string) string {
	return mm.m.Named(name)
}

// mvParse is math_verify.parse: the extracted answers, the first
// extracted string appended as a fallback.
func mvParse(pred string, latexOnly bool) []*mvVal {
	pats := mvPatterns(latexOnly)
	var extracted []*mvVal
	var fallbacks []string
	for i := 0; i < len(pats); {
		j := i
		for j < len(pats) && pats[j].priority == pats[i].priority {
			j++
		}
		var ms []mvMatch
		for k := i; k < j; k++ {
			for _, m := range pats[k].re.FindAll(pred) {
				ms = append(ms, mvMatch{m, &pats[k]})
			}
		}
		sort.SliceStable(ms, func(a, b int) bool {
			if ms[a].m.End() != ms[b].m.End() {
				return ms[a].m.End() > ms[b].m.End()
			}
			return ms[a].m.Start() < ms[b].m.Start()
		})
		for _, mm := range ms {
			var v *mvVal
			var s string
			if mm.pat.latex {
				v, s = mvExtractLatex(mm)
			} else {
				v, s = mvExtractExpr(mm)
			}
			if s != "" {
				fallbacks = append(fallbacks, s)
			}
			if v != nil {
				extracted = append(extracted, v)
				break
			}
		}
		if len(extracted) > 0 {
			break
		}
		i = j
	}
	if len(fallbacks) > 0 {
		extracted = append(extracted, &mvVal{kind: mvStr, s: fallbacks[0]})
	}
	return extracted
}

// extract_expr
func mvExtractExpr(mm mvMatch) (*mvVal, string) {
	var integer, decimal string
	for _, n := range mm.pat.names {
		if strings.HasPrefix(n, "integer") && integer == "" {
			integer = mm.group(n)
		}
		if strings.HasPrefix(n, "decimal") && decimal == "" {
			decimal = mm.group(n)
		}
	}
	pct := mm.group("percent") != ""
	if integer != "" || decimal != "" {
		integer = strings.TrimLeft(strings.NewReplacer(",", "", " ", "").Replace(integer), "0")
		if integer == "" {
			integer = "0"
		}
		decimal = strings.ReplaceAll(decimal, ",", ".")
		s := integer + decimal
		v := mvNumber(s)
		if v == nil {
			return nil, s
		}
		if pct {
			v = v.percent()
		}
		return v, s
	}
	expr := mm.group("expr")
	if expr != "" {
		if v := mvPyExpr(strings.ReplaceAll(strings.ReplaceAll(expr, "\n", " "), "^", "**")); v != nil {
			return v, expr
		}
	}
	return nil, expr
}

// extract_latex
func mvExtractLatex(mm mvMatch) (*mvVal, string) {
	type grp struct{ val, name string }
	var all []grp
	find := func(prefix string) {
		for _, n := range mm.pat.names {
			if strings.HasPrefix(n, prefix) {
				if v := mm.group(n); v != "" {
					all = append(all, grp{v, n})
					return
				}
			}
		}
	}
	find("first_latex")
	for i := 1; i <= 5; i++ {
		find("next" + itoa(i) + "_latex")
	}
	var exprs []*mvVal
	var strs []string
	for _, g := range all {
		parts := strings.Split(g.name, "_")
		boxedMode := "all"
		if len(parts) > 1 && parts[1] == "latexBoxed" {
			boxedMode = "last"
		}
		norm := mvNormalizeLatex(g.val, boxedMode)
		strs = append(strs, norm)
		v := mvParseLatex(norm)
		if v != nil && mm.group(parts[0]+"_percent") != "" {
			v = v.percent()
		}
		exprs = append(exprs, v)
	}
	if len(exprs) == 0 {
		return nil, ""
	}
	if len(exprs) > 1 {
		ok := true
		for _, e := range exprs {
			if e == nil {
				ok = false
			}
		}
		if ok {
			set := &mvVal{kind: mvSet}
			for _, e := range exprs {
				if e.kind == mvSet {
					set.elems = append(set.elems, e.elems...)
				} else {
					set.elems = append(set.elems, e)
				}
			}
			return set, strings.Join(strs, " and ")
		}
	}
	return exprs[0], strs[0]
}
