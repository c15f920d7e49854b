// Package minerva_math ports lm-eval's minerva_math/utils.py: the
// Minerva prompt ("Problem:\n…\n\nSolution:"), the four-shot examples, the
// boxed-answer extraction and Lewkowycz et al.'s answer normalisation, and
// the sympy-based equivalence (is_equiv) behind the exact_match metric.
package minerva_math

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/mathequiv"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/sympylatex"
)

// InvalidAnswer is what get_unnormalized_answer returns when the output
// has no "Final Answer: The final answer is … I hope it is correct."
const InvalidAnswer = "[invalidanswer]"

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) {
	p, err := pydoc.String(doc, "problem")
	if err != nil {
		return "", fmt.Errorf("minerva_math doc_to_text: %w", err)
	}
	return "Problem:" + "\n" + p + "\n\n" + "Solution:", nil
}

// ProcessDocs is process_docs: datasets.map keeps every column and sets
// problem, solution and answer (the normalised boxed answer of the
// solution). (utils.py's few_shot test uses getattr on a dict, which is
// never true, so it adds nothing.)
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		sol, err := pydoc.String(d, "solution")
		if err != nil {
			return nil, fmt.Errorf("minerva_math process_docs: document %d: %w", i, err)
		}
		prob, err := pydoc.String(d, "problem")
		if err != nil {
			return nil, fmt.Errorf("minerva_math process_docs: document %d: %w", i, err)
		}
		boxed, ok := LastBoxedOnlyString(sol)
		if !ok {
			// remove_boxed(None) raises TypeError in utils.py
			return nil, fmt.Errorf("minerva_math process_docs: document %d: solution has no \\boxed answer", i)
		}
		inner, err := RemoveBoxed(boxed)
		if err != nil {
			return nil, fmt.Errorf("minerva_math process_docs: document %d: %w", i, err)
		}
		nd := make(task.Doc, len(d)+1)
		for k, v := range d {
			nd[k] = v
		}
		nd["problem"], nd["solution"], nd["answer"] = prob, sol, NormalizeFinalAnswer(inner)
		out[i] = nd
	}
	return out, nil
}

// FewshotSamples are list_fewshot_samples' four examples.
var FewshotSamples = []map[string]string{
	{
		"problem":  "Find the domain of the expression  $\\frac{\\sqrt{x-2}}{\\sqrt{5-x}}$.}",
		"solution": "The expressions inside each square root must be non-negative. Therefore, $x-2 \\ge 0$, so $x\\ge2$, and $5 - x \\ge 0$, so $x \\le 5$. Also, the denominator cannot be equal to zero, so $5-x>0$, which gives $x<5$. Therefore, the domain of the expression is $\\boxed{[2,5)}$.\nFinal Answer: The final answer is $[2,5)$. I hope it is correct.",
		"few_shot": "1",
	},
	{
		"problem":  "If $\\det \\mathbf{A} = 2$ and $\\det \\mathbf{B} = 12,$ then find $\\det (\\mathbf{A} \\mathbf{B}).$",
		"solution": "We have that $\\det (\\mathbf{A} \\mathbf{B}) = (\\det \\mathbf{A})(\\det \\mathbf{B}) = (2)(12) = \\boxed{24}.$\nFinal Answer: The final answer is $24$. I hope it is correct.",
		"few_shot": "1",
	},
	{
		"problem":  "Terrell usually lifts two 20-pound weights 12 times. If he uses two 15-pound weights instead, how many times must Terrell lift them in order to lift the same total weight?",
		"solution": "If Terrell lifts two 20-pound weights 12 times, he lifts a total of $2\\cdot 12\\cdot20=480$ pounds of weight.  If he lifts two 15-pound weights instead for $n$ times, he will lift a total of $2\\cdot15\\cdot n=30n$ pounds of weight.  Equating this to 480 pounds, we can solve for $n$:\n\\begin{align*}\n30n&=480\\\n\\Rightarrow\\qquad n&=480/30=\\boxed{16}\n\\end{align*}\nFinal Answer: The final answer is $16$. I hope it is correct.",
		"few_shot": "1",
	},
	{
		"problem":  "If the system of equations\n\n\\begin{align*}\n6x-4y&=a,\\\n6y-9x &=b.\n\\end{align*}has a solution $(x, y)$ where $x$ and $y$ are both nonzero,\nfind $\\frac{a}{b},$ assuming $b$ is nonzero.",
		"solution": "If we multiply the first equation by $-\\frac{3}{2}$, we obtain\n\n$$6y-9x=-\\frac{3}{2}a.$$Since we also know that $6y-9x=b$, we have\n\n$$-\\frac{3}{2}a=b\\Rightarrow\\frac{a}{b}=\\boxed{-\\frac{2}{3}}.$$\nFinal Answer: The final answer is $-\\frac{2}{3}$. I hope it is correct.",
		"few_shot": "1",
	},
}

// ListFewshotSamples is list_fewshot_samples.
func ListFewshotSamples() ([]task.Doc, error) {
	return samples(FewshotSamples, nil), nil
}

// samples copies the examples into documents, adding extra fields.
func samples(src []map[string]string, extra map[string]string) []task.Doc {
	out := make([]task.Doc, len(src))
	for i, s := range src {
		d := task.Doc{}
		for k, v := range s {
			d[k] = v
		}
		for k, v := range extra {
			d[k] = v
		}
		out[i] = d
	}
	return out
}

// ProcessResults is process_results' exact_match: the normalised final
// answer of the output against the document's answer with is_equiv.
// Its math_verify metric is Hugging Face's math_verify, ported natively
// (MathVerify, see docs/math.md).
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	out, err := result(results)
	if err != nil {
		return nil, fmt.Errorf("minerva_math process_results: %w", err)
	}
	gold, err := pydoc.String(doc, "answer")
	if err != nil {
		return nil, fmt.Errorf("minerva_math process_results: %w", err)
	}
	sol, err := pydoc.String(doc, "solution")
	if err != nil {
		return nil, fmt.Errorf("minerva_math process_results: %w", err)
	}
	em := 0
	if IsEquiv(NormalizeFinalAnswer(GetUnnormalizedAnswer(out)), gold) {
		em = 1
	}
	mv := 0
	if MathVerify(sol, out) {
		mv = 1
	}
	return map[string]any{"exact_match": em, "math_verify": mv}, nil
}

// result takes the generated text out of process_results' results.
func result(results []any) (string, error) {
	if len(results) == 0 {
		return "", errors.New("no results")
	}
	s, ok := results[0].(string)
	if !ok {
		return "", fmt.Errorf("result is %T, want the generated string", results[0])
	}
	return s, nil
}

// LastBoxedOnlyString is last_boxed_only_string: the last \boxed{…} (or
// \fbox{…}) with its balanced braces, or everything after the last
// "\boxed " up to a "$". ok is false where utils.py returns None.
func LastBoxedOnlyString(s string) (string, bool) {
	if strings.Contains(s, "\\boxed ") {
		parts := strings.Split(s, "\\boxed ")
		return "\\boxed " + strings.Split(parts[len(parts)-1], "$")[0], true
	}
	return mathequiv.LastBoxed(s)
}

// ErrNotBoxed is remove_boxed's AssertionError.
var ErrNotBoxed = errors.New("answer is not of the form \\boxed{...}")

// RemoveBoxed is remove_boxed.
func RemoveBoxed(s string) (string, error) {
	if strings.Contains(s, "\\boxed ") {
		if !strings.HasPrefix(s, "\\boxed ") {
			return "", ErrNotBoxed
		}
		return s[len("\\boxed "):], nil
	}
	if !strings.HasPrefix(s, "\\boxed{") || !strings.HasSuffix(s, "}") {
		return "", ErrNotBoxed
	}
	return s[len("\\boxed{") : len(s)-1], nil
}

// IsEquiv is is_equiv: sympy's parse_latex of both strings and
// simplify(x1 - x2) == 0, false when either does not parse (see package
// sympylatex for how lmeval decides it without sympy).
func IsEquiv(x1, x2 string) bool { return sympylatex.Equiv(x1, x2) }

var finalAnswerRe = regexp.MustCompile(`Final Answer: The final answer is(.*?). I hope it is correct.`)

// GetUnnormalizedAnswer is get_unnormalized_answer.
func GetUnnormalizedAnswer(text string) string {
	text += "I hope it is correct."
	m := finalAnswerRe.FindStringSubmatch(text)
	if m == nil {
		return InvalidAnswer
	}
	return strings.TrimFunc(m[1], isPySpace)
}

func isPySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// Substitutions and RemovedExpressions are utils.py's SUBSTITUTIONS and
// REMOVED_EXPRESSIONS.
var (
	Substitutions = [][2]string{
		{"an ", ""}, {"a ", ""}, {".$", "$"}, {"\\$", ""}, {`\ `, ""}, {" ", ""},
		{"mbox", "text"}, {",\\text{and}", ","}, {"\\text{and}", ","}, {"\\text{m}", "\\text{}"},
	}
	RemovedExpressions = []string{
		"square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km", "units",
		"\\ldots", "sue", "points", "feet", "minutes", "digits", "cents", "degrees", "cm", "gm",
		"pounds", "meters", "meals", "edges", "students", "childrentickets", "multiples",
		"\\text{s}", "\\text{.}", "\\text{\ns}", "\\text{}^2", "\\text{}^3", "\\text{\n}", "\\text{}",
		`\mathrm{th}`, `^\circ`, `^{\circ}`, `\;`, `,\!`, "{,}", `"`, "\\dots",
	}
)

var (
	dollarRe   = regexp.MustCompile(`(.*?)(\$)(.*?)(\$)(.*)`)
	textRe     = regexp.MustCompile(`(\\text\{)(.*?)(\})`)
	textbfRe   = regexp.MustCompile(`(\\textbf\{)(.*?)(\})`)
	overlineRe = regexp.MustCompile(`(\\overline\{)(.*?)(\})`)
	boxedRe    = regexp.MustCompile(`(\\boxed\{)(.*)(\})`)
	fracRe     = regexp.MustCompile(`(frac)([^{])(.)`)
	sqrtRe     = regexp.MustCompile(`(sqrt)([^{])`)
)

// subGroups is re.sub with a replacement built from the groups.
func subGroups(re *regexp.Regexp, s string, repl func(g []string) string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		g := make([]string, len(m)/2)
		for i := range g {
			if m[2*i] >= 0 {
				g[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		b.WriteString(repl(g))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// NormalizeFinalAnswer is normalize_final_answer (appendix D of
// Lewkowycz et al. 2022).
func NormalizeFinalAnswer(s string) string {
	parts := strings.Split(s, "=")
	s = parts[len(parts)-1]
	for _, sub := range Substitutions {
		s = strings.ReplaceAll(s, sub[0], sub[1])
	}
	for _, e := range RemovedExpressions {
		s = strings.ReplaceAll(s, e, "")
	}
	s = subGroups(dollarRe, s, func(g []string) string { return "$" + g[3] + "$" })
	s = subGroups(textRe, s, func(g []string) string { return g[2] })
	s = subGroups(textbfRe, s, func(g []string) string { return g[2] })
	s = subGroups(overlineRe, s, func(g []string) string { return g[2] })
	s = subGroups(boxedRe, s, func(g []string) string { return g[2] })
	s = subGroups(fracRe, s, func(g []string) string { return "frac{" + g[2] + "}{" + g[3] + "}" })
	s = subGroups(sqrtRe, s, func(g []string) string { return "sqrt{" + g[2] + "}" })
	s = strings.ReplaceAll(s, "$", "")
	if IsPyDigit(strings.ReplaceAll(s, ",", "")) {
		s = strings.ReplaceAll(s, ",", "")
	}
	return s
}

// IsPyDigit is Python's str.isdigit: non-empty and every character a
// digit (decimal digits, and the superscript, subscript and circled
// digits Unicode gives Numeric_Type=Digit).
func IsPyDigit(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && !isOtherDigit(r) {
			return false
		}
	}
	return true
}

func isOtherDigit(r rune) bool {
	switch {
	case r == 0xB2 || r == 0xB3 || r == 0xB9 || r == 0x2070:
		return true
	case r >= 0x2074 && r <= 0x2079, r >= 0x2080 && r <= 0x2089:
		return true
	case r >= 0x2460 && r <= 0x2468, r >= 0x2474 && r <= 0x247C, r >= 0x2488 && r <= 0x2490:
		return true
	case r == 0x24EA, r >= 0x24F5 && r <= 0x24FD, r == 0x24FF:
		return true
	case r >= 0x2776 && r <= 0x277E, r >= 0x2780 && r <= 0x2788, r >= 0x278A && r <= 0x2792:
		return true
	case r >= 0x1369 && r <= 0x1371, r == 0x19DA:
		return true
	}
	return false
}
