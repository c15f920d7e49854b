package minerva_math

import (
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/ports/internal/sympylatex"
)

// MathVerify approximates Hugging Face math_verify's
// verify(parse(gold, LaTeX extraction), parse(prediction)), which lm-eval's
// minerva_math (math_verify metric) and leaderboard/math (exact_match)
// use. math_verify is a large library (its own LaTeX-to-sympy converter
// and comparison rules) that lmeval does not reproduce exactly: this
// extracts the last \boxed{} answer (else the "final answer is" answer,
// else the last math span; for the prediction also the last number),
// normalises it lightly, and compares answer lists element by element with
// the sympy-equivalent check of package sympylatex. Its agreement with the
// real math_verify has not been measured (math_verify is not installed on
// the machines lmeval is tested on); see docs/math.md.
func MathVerify(goldSolution, prediction string) bool {
	warnOnce.Do(func() {
		slog.Warn("math_verify is approximated natively; its verdicts can differ from Hugging Face math_verify's (see docs/math.md)")
	})
	golds := extractAnswers(goldSolution, false)
	preds := extractAnswers(prediction, true)
	for _, g := range golds {
		for _, p := range preds {
			if answersMatch(g, p) {
				return true
			}
		}
	}
	return false
}

var warnOnce sync.Once

var (
	mathSpanRe   = regexp.MustCompile(`\$\$([^$]+)\$\$|\$([^$]+)\$|\\\[(.+?)\\\]|\\\((.+?)\\\)`)
	lastNumberRe = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?`)
)

func extractAnswers(text string, pred bool) []string {
	var out []string
	if b, ok := LastBoxedOnlyString(text); ok {
		if inner, err := RemoveBoxed(b); err == nil {
			out = append(out, inner)
		}
	}
	if len(out) == 0 {
		if m := mathSpanRe.FindAllStringSubmatch(text, -1); m != nil {
			last := m[len(m)-1]
			for _, g := range last[1:] {
				if g != "" {
					out = append(out, g)
					break
				}
			}
		}
	}
	if pred && len(out) == 0 {
		if m := lastNumberRe.FindAllString(text, -1); m != nil {
			out = append(out, m[len(m)-1])
		}
	}
	return out
}

var (
	plainNumberDotRe = regexp.MustCompile(`^-?[0-9][0-9,]*(\.[0-9]+)?\.$`)
	sqrtShortRe      = regexp.MustCompile(`\\sqrt([0-9a-zA-Z])`)
	fracShortRe      = regexp.MustCompile(`\\frac([0-9a-zA-Z])([0-9a-zA-Z])`)
)

// fixShorthand writes \sqrt3 and \frac12 with braces.
func fixShorthand(s string) string {
	s = sqrtShortRe.ReplaceAllString(s, `\sqrt{$1}`)
	return fracShortRe.ReplaceAllString(s, `\frac{$1}{$2}`)
}

var (
	mvTextRe  = regexp.MustCompile(`\\(?:text|textbf|mathrm|mbox)\{([^{}]*)\}`)
	mvUnitsRe = regexp.MustCompile(`\\(?:text|mathrm|mbox)\{\s*[a-zA-Z ]*\}(\^\{?[23]\}?)?\s*$`)
	mvLhsRe   = regexp.MustCompile(`^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=\s*`)
)

func mvNormalize(s string) string {
	s = strings.TrimSpace(s)
	s = mvUnitsRe.ReplaceAllString(s, "")
	s = mvTextRe.ReplaceAllString(s, "$1")
	for _, r := range [][2]string{
		{`\left`, ""}, {`\right`, ""}, {`\!`, ""}, {`\,`, ""}, {`\;`, ""}, {`\ `, ""},
		{`\dfrac`, `\frac`}, {`\tfrac`, `\frac`}, {`\%`, `/100`}, {`%`, `/100`}, {`\$`, ""},
		{`^{\circ}`, ""}, {`^\circ`, ""}, {`\displaystyle`, ""},
	} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	s = mvLhsRe.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

// splitTop splits at commas outside brackets and strips one level of
// enclosing (), [] or \{\}.
func splitTop(s string) []string {
	if len(s) >= 2 && strings.ContainsRune("([", rune(s[0])) && strings.ContainsRune(")]", rune(s[len(s)-1])) {
		s = s[1 : len(s)-1]
	} else if strings.HasPrefix(s, `\{`) && strings.HasSuffix(s, `\}`) {
		s = s[2 : len(s)-2]
	}
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[last:i])
				last = i + 1
			}
		}
	}
	return append(parts, s[last:])
}

func answersMatch(g, p string) bool {
	g, p = fixShorthand(mvNormalize(g)), fixShorthand(mvNormalize(p))
	if plainNumberDotRe.MatchString(p) {
		p = strings.TrimSuffix(p, ".")
	}
	if g == "" || p == "" || strings.HasSuffix(p, ".") {
		return false // math_verify does not read an answer ending in "."
	}
	if strings.ReplaceAll(g, " ", "") == strings.ReplaceAll(p, " ", "") {
		return true
	}
	gs, ps := splitTop(g), splitTop(p)
	if len(gs) != len(ps) {
		return false
	}
	if len(gs) == 1 {
		return scalarMatch(gs[0], ps[0])
	}
	// intervals and tuples keep their brackets and order
	if strings.ContainsRune("([", rune(g[0])) || strings.ContainsRune("([", rune(p[0])) {
		if g[0] != p[0] || g[len(g)-1] != p[len(p)-1] {
			return false
		}
		for i := range gs {
			if !scalarMatch(gs[i], ps[i]) {
				return false
			}
		}
		return true
	}
	// bare lists and sets: order does not matter
	used := make([]bool, len(ps))
	for _, ge := range gs {
		found := false
		for j, pe := range ps {
			if !used[j] && scalarMatch(ge, pe) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func scalarMatch(g, p string) bool {
	g, p = strings.TrimSpace(g), strings.TrimSpace(p)
	if g == p {
		return true
	}
	a, err := sympylatex.Parse(g)
	if err != nil {
		return false
	}
	b, err := sympylatex.Parse(p)
	if err != nil {
		return false
	}
	if sympylatex.Equal(a, b) {
		return true
	}
	// decimals compare after rounding (math_verify's float_rounding=6)
	if strings.Contains(g, ".") || strings.Contains(p, ".") {
		return sympylatex.CloseNumbers(a, b, 1e-6)
	}
	return false
}
