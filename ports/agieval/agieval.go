// Package agieval ports lm_eval/tasks/agieval/utils.py: AGIEval's answer
// parsing (parse_math_answer) and Hendrycks et al.'s normalisation
// (_strip_string) behind process_results of the cloze tasks, and
// process_results_mcqa (several gold answers may be right). hrm8k's
// utils.py uses the same parsing and normalisation.
package agieval

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/mathequiv"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// removeBoxed is parse_math_answer's remove_boxed: the inside of
// "\boxed{...}", after its last "=" when it has one; ok is false where it
// returns None.
func removeBoxed(s string) (string, bool) {
	const left = "\\boxed{"
	if !strings.HasPrefix(s, left) || !strings.HasSuffix(s, "}") || len(s) < len(left)+1 {
		return "", false
	}
	ans := s[len(left) : len(s)-1]
	if strings.Contains(ans, "=") {
		parts := strings.Split(ans, "=")
		ans = strings.TrimLeft(parts[len(parts)-1], " ")
	}
	return ans, true
}

var (
	dollarRe = pyre.MustCompile(`\$(.*)\$`)
	numberRe = pyre.MustCompile("(?:\\$)?\\d+(?:\\.\\d+)?(?![\\w\\d])")
)

func lastSplit(s, sep string) string {
	parts := strings.Split(s, sep)
	return parts[len(parts)-1]
}

// ParseMathAnswer is parse_math_answer; ok is false where it returns None.
func ParseMathAnswer(raw string) (string, bool) {
	if strings.Contains(raw, "\\boxed") {
		b, ok := mathequiv.LastBoxed(raw) // parse_math_answer's last_boxed_only_string
		if !ok {
			return "", false
		}
		return removeBoxed(b)
	}
	// get_answer_with_dollar_sign
	ans, ok := "", false
	if ms := dollarRe.FindAll(raw); len(ms) > 0 {
		ans, ok = ms[len(ms)-1].Group(1), true
		if strings.Contains(ans, "=") {
			ans = strings.TrimLeft(lastSplit(ans, "="), " ")
		}
	}
	if ok && ans != "" {
		return ans, true
	}
	// get_answer_without_dollar_sign
	if strings.Contains(raw, "=") {
		ans = strings.TrimRight(strings.TrimLeft(lastSplit(raw, "="), " "), ".")
		if strings.Contains(ans, "\\n") {
			ans = strings.Split(ans, "\\n")[0]
		}
		return ans, true
	}
	if ms := numberRe.FindAll(raw); len(ms) > 0 {
		return ms[len(ms)-1].Group(0), true
	}
	return "", false
}

// StripString is _strip_string; an error stands for an exception.
func StripString(s string) (string, error) {
	for _, r := range [][2]string{{"\n", ""}, {"\\!", ""}, {"\\\\", "\\"}, {"tfrac", "frac"}, {"dfrac", "frac"},
		{"\\left", ""}, {"\\right", ""}, {"^{\\circ}", ""}, {"^\\circ", ""}, {"\\$", ""}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	s, err := mathequiv.RemoveRightUnits(s)
	if err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, "\\%", "")
	s = strings.ReplaceAll(s, " .", " 0.")
	s = strings.ReplaceAll(s, "{.", "{0.")
	if s == "" {
		return s, nil
	}
	if s[0] == '.' {
		s = "0" + s
	}
	if parts := strings.Split(s, "="); len(parts) == 2 && utf8.RuneCountInString(parts[0]) <= 2 {
		s = parts[1]
	}
	if s, err = mathequiv.FixSqrt(s); err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, " ", "")
	if s, err = mathequiv.FixFracs(s); err != nil {
		return "", err
	}
	if s == "0.5" {
		s = "\\frac{1}{2}"
	}
	// _fix_a_slash_b catches every exception.
	s, _ = mathequiv.FixASlashB(s)
	return s, nil
}

// Answer is a parsed answer: None when !OK.
type Answer struct {
	S  string
	OK bool
}

// Parse is ParseMathAnswer as an Answer.
func Parse(s string) Answer {
	a, ok := ParseMathAnswer(s)
	return Answer{a, ok}
}

// Equal is Python's == of the two parsed answers.
func (a Answer) Equal(b Answer) bool { return a.OK == b.OK && a.S == b.S }

// IsEquiv is agieval's is_equiv for two strings: the parsed answers'
// _strip_string forms equal; when either raises (None has no .replace),
// the parsed answers themselves.
func IsEquiv(s1, s2 string) bool {
	a, b := Parse(s1), Parse(s2)
	if !a.OK || !b.OK {
		return a.Equal(b)
	}
	x, err1 := StripString(a.S)
	y, err2 := StripString(b.S)
	if err1 != nil || err2 != nil {
		return a.Equal(b)
	}
	return x == y
}

// ProcessResults is process_results: acc 1 when the generated answer is
// equivalent to the document's answer.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("agieval process_results: no results")
	}
	cand, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("agieval process_results: result is %T, want the generated string", results[0])
	}
	acc := 0
	switch gold := doc["answer"].(type) {
	case nil: // is_equiv(candidate, None) is False
	case string:
		if IsEquiv(cand, gold) {
			acc = 1
		}
	default:
		return nil, fmt.Errorf("agieval process_results: answer is %T: argument of type %s is not iterable", gold, pyval.Repr(gold))
	}
	return map[string]any{"acc": acc}, nil
}

func in(i int, gold []any) bool {
	for _, g := range gold {
		if pyval.Equal(g, i) {
			return true
		}
	}
	return false
}

// ProcessResultsMCQA is process_results_mcqa: acc and acc_norm (the
// log-likelihoods divided by the choices' lengths in characters) are 1
// when the best choice is among the document's gold indices.
func ProcessResultsMCQA(doc task.Doc, results []any) (map[string]any, error) {
	lls := make([]float64, len(results))
	for i, r := range results {
		l, ok := r.(model.LoglikelihoodResult)
		if !ok {
			return nil, fmt.Errorf("agieval process_results_mcqa: result %d is %T, want a log-likelihood", i, r)
		}
		lls[i] = l.LogProb
	}
	gold, ok := doc["gold"].([]any)
	if !ok {
		return nil, fmt.Errorf("agieval process_results_mcqa: gold is %T, want a list", doc["gold"])
	}
	choices, ok := doc["choices"].([]any)
	if !ok || len(choices) != len(lls) {
		return nil, fmt.Errorf("agieval process_results_mcqa: choices is %T of %d, want %d texts", doc["choices"], len(choices), len(lls))
	}
	norm := make([]float64, len(lls))
	for i, c := range choices {
		s, ok := c.(string)
		if !ok {
			return nil, fmt.Errorf("agieval process_results_mcqa: choice %d is %T", i, c)
		}
		norm[i] = lls[i] / float64(utf8.RuneCountInString(s))
	}
	acc, accNorm := 0.0, 0.0
	if len(lls) > 0 && in(metrics.Argmax(lls), gold) {
		acc = 1
	}
	if len(lls) > 0 && in(metrics.Argmax(norm), gold) {
		accNorm = 1
	}
	return map[string]any{"acc": acc, "acc_norm": accNorm}, nil
}
