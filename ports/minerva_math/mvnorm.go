package minerva_math

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyre"
)

// normalize_latex of latex2sympy2_extended 1.11.0 (math_normalization.py)
// with math_verify's LatexExtractionConfig: basic_latex, units,
// malformed_operators and nits on, equations off, boxed "all" (or "last"
// for the plain \boxed{...} pattern).

var (
	mvUnitsRe         = pyre.MustCompile(mvUnitsPattern)
	mvReplaceRe       = pyre.MustCompile(mvReplacePattern)
	mvToRemoveRe      = pyre.MustCompile(mvToRemovePattern)
	mvLeftRe          = pyre.MustCompile(mvLeftPattern)
	mvRightRe         = pyre.MustCompile(mvRightPattern)
	mvPermutationRe   = pyre.MustCompile(mvPermutationPattern)
	mvUnitSupRe       = pyre.MustCompile(mvUnitSuperscriptPattern)
	mvCmdSlashRe      = pyre.MustCompile(`\\\\(?=[a-zA-Z])`)
	mvValidSepRe      = pyre.MustCompile(`\b(and|or)\b|,|;`)
	mvMalformedRes    []*pyre.Regexp
	mvMalformedRepl   = []string{`^{\1}`, `\\sqrt{\1}`, `\\frac{\1}{\2}`, `\\log_{\1}{\2}`, `\\frac{\1}{\2}`, `\\frac{\1}{\2}`, `\\sqrt{\1}`}
	mvMalformedSource = []string{`\^\s?\((.*?)\)`, `sqrt\s?\((.*?)\)`, `\\frac\s?(\d)\s?(\d+)`, `\\log_\s?(\d)\s?(\d+)`, `\\frac\s?{(.*?)}\s?(\d)`, `\\frac\s?(\d)\s?{(.*?)}`, `\\sqrt\s?(\d)`}
)

func init() {
	for _, s := range mvMalformedSource {
		mvMalformedRes = append(mvMalformedRes, pyre.MustCompile(s))
	}
}

func pySub(re *pyre.Regexp, repl, s string) string {
	out, err := re.Sub(repl, s, 0)
	if err != nil {
		return s
	}
	return out
}

// extract_boxed_content
func mvExtractBoxed(text, mode string) string {
	var results []string
	cur := len(text)
	lastBoxedStart := -1
	maxPos := len(text)
	findBounds := func(open, maxp int) (int, int, bool) {
		i, n := open, 1
		for i+1 < maxp {
			i++
			switch text[i] {
			case '{':
				n++
			case '}':
				n--
				if n == 0 {
					return open, i, true
				}
			}
		}
		return 0, 0, false
	}
	shouldExtract := func(boxedText, nextText string, boxedEnd, nextStart int) bool {
		between := ""
		if boxedEnd+1 <= nextStart {
			between = text[boxedEnd+1 : nextStart]
		}
		if utf8.RuneCountInString(between) < 10 {
			return true
		}
		return nextText != boxedText && utf8.RuneCountInString(between) < 70 && mvValidSepRe.Search(between) != nil
	}
	for {
		bi := strings.LastIndex(text[:cur], `\boxed`)
		fi := strings.LastIndex(text[:cur], `\fbox`)
		if bi < 0 && fi < 0 {
			break
		}
		start := bi
		cmdEnd := bi + 6
		if fi > bi {
			start, cmdEnd = fi, fi+5
		}
		nc := cmdEnd
		for nc < maxPos && isPySpace(rune(text[nc])) {
			nc++
		}
		if nc >= maxPos {
			break
		}
		if text[nc] == '{' {
			cs, ce, ok := findBounds(nc, maxPos)
			if !ok {
				if len(results) == 0 {
					results = append(results, text[nc:])
				}
				break
			}
			content := pyre.Strip(text[cs+1 : ce])
			if mode == "last" && lastBoxedStart >= 0 {
				prev := ""
				if len(results) > 0 {
					prev = results[len(results)-1]
				}
				if !shouldExtract(content, prev, ce, lastBoxedStart) {
					break
				}
			}
			if len(results) == 0 || results[len(results)-1] != content {
				results = append(results, content)
			}
			lastBoxedStart = start
			maxPos = start
		} else {
			if len(results) == 0 {
				results = append(results, text[nc:])
			}
			break
		}
		cur = start
	}
	if len(results) == 0 {
		return text
	}
	for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
		results[i], results[j] = results[j], results[i]
	}
	return strings.Join(results, ",")
}

func mvFixFracs(text string) string {
	substrs := strings.Split(text, `\frac`)
	b := substrs[0]
	for _, s := range substrs[1:] {
		s = pyre.LStrip(s)
		b += `\frac`
		if len(s) > 0 && s[0] == '{' {
			b += s
		} else if utf8.RuneCountInString(s) < 2 {
			return text
		} else {
			rs := []rune(s)
			a, c := string(rs[0]), string(rs[1])
			post := string(rs[2:])
			if c != "{" {
				b += "{" + a + "}{" + c + "}" + post
			} else {
				b += "{" + a + "}" + c + post
			}
		}
	}
	return b
}

func mvFixASlashB(text string) string {
	parts := strings.Split(text, "/")
	if len(parts) != 2 {
		return text
	}
	a, err1 := pyInt(parts[0])
	b, err2 := pyInt(parts[1])
	if err1 != nil || err2 != nil || text != strconv.FormatInt(a, 10)+"/"+strconv.FormatInt(b, 10) {
		return text
	}
	return `\frac{` + strconv.FormatInt(a, 10) + "}{" + strconv.FormatInt(b, 10) + "}"
}

// pyInt is int(s) for the strings the check above can accept (the
// round trip rejects signs, spaces and underscores anyway).
func pyInt(s string) (int64, error) {
	return strconv.ParseInt(pyre.Strip(s), 10, 64)
}

func mvFixSqrt(text string) string {
	if !strings.Contains(text, `\sqrt`) {
		return text
	}
	splits := strings.Split(text, `\sqrt`)
	b := splits[0]
	for _, s := range splits[1:] {
		s = pyre.LStrip(s)
		if len(s) > 0 && s[0] != '{' && s[0] != '[' {
			rs := []rune(s)
			b += `\sqrt{` + string(rs[0]) + "}" + string(rs[1:])
		} else {
			b += `\sqrt` + s
		}
	}
	return b
}

func mvNormalizeLatex(text, boxed string) string {
	text = mvExtractBoxed(text, boxed)
	// basic_latex
	text = strings.ReplaceAll(text, `\mathrm{T}`, "T")
	text = strings.ReplaceAll(strings.ReplaceAll(text, `\mathrm{d}`, "d"), `{\rm d}`, "d")
	text = strings.ReplaceAll(strings.ReplaceAll(text, `\left[\begin{matrix}`, `\begin{bmatrix}`), `\end{matrix}\right]`, `\end{bmatrix}`)
	text = pySub(mvLeftRe, `\1`, text)
	text = pySub(mvRightRe, `\1`, text)
	text = pySub(mvPermutationRe, `\\frac{(\1)!}{((\1)-(\2))!}`, text)
	text = pySub(mvToRemoveRe, "", text)
	text = mvReplaceRe.SubFunc(text, 0, func(m *pyre.Match) string {
		for name, i := range mvReplaceIdx {
			if m.Matched(i) {
				if repl, ok := mvReplacements[name]; ok {
					return repl
				}
			}
		}
		return m.Group(0)
	})
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\n", " "), "\t", " ")
	if !strings.Contains(text, "matrix") {
		text = pySub(mvCmdSlashRe, `\\`, text)
	}
	// units
	if t := pyre.Strip(pySub(mvUnitSupRe, "", text)); t != "" && t != text {
		text = t
	}
	for i := 0; i < 2; i++ {
		if t := pySub(mvUnitsRe, `\1`, text); t != "" && t != text {
			text = t
		}
	}
	// nits
	if len(text) > 0 && text[0] == '.' {
		text = "0" + text
	}
	if text == "0.5" {
		text = `\frac{1}{2}`
	}
	// malformed_operators
	for i, re := range mvMalformedRes {
		text = pySub(re, mvMalformedRepl[i], text)
	}
	text = strings.ReplaceAll(text, " sqrt", `\sqrt`)
	text = mvFixSqrt(text)
	text = mvFixFracs(text)
	text = mvFixASlashB(text)
	return pyre.Strip(text)
}

var mvReplaceIdx = mvReplaceRe.GroupIndex()
