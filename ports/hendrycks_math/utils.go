// Package hendrycks_math ports lm-eval's hendrycks_math/utils.py: the
// boxed-answer extraction and Hendrycks et al.'s string normalisation
// (strip_string) behind the exact_match metric of hendrycks_math and
// hendrycks_math500.
package hendrycks_math

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/mathequiv"
	minerva "github.com/lmeval/lmeval/ports/minerva_math"
)

// ProcessDocs is process_docs: datasets.map keeps every column and sets
// problem, solution and answer (the boxed answer of the solution).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		sol, ok1 := d["solution"].(string)
		prob, ok2 := d["problem"].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("hendrycks_math process_docs: document %d: want string fields problem and solution", i)
		}
		ans, err := boxedAnswer(sol)
		if err != nil {
			return nil, fmt.Errorf("hendrycks_math process_docs: document %d: %w", i, err)
		}
		nd := make(task.Doc, len(d)+1)
		for k, v := range d {
			nd[k] = v
		}
		nd["problem"], nd["solution"], nd["answer"] = prob, sol, ans
		out[i] = nd
	}
	return out, nil
}

// boxedAnswer is remove_boxed(last_boxed_only_string(solution)); utils.py
// raises (TypeError, AssertionError) where this returns an error.
func boxedAnswer(sol string) (string, error) {
	b, ok := minerva.LastBoxedOnlyString(sol)
	if !ok {
		return "", errors.New("solution has no \\boxed answer")
	}
	return minerva.RemoveBoxed(b)
}

// ProcessResults is process_results: the text between the first and the
// last "$" of the output (all of it when there are fewer than two) against
// the solution's boxed answer, with is_equiv.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("hendrycks_math process_results: no results")
	}
	out, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("hendrycks_math process_results: result is %T, want the generated string", results[0])
	}
	sol, ok := doc["solution"].(string)
	if !ok {
		return nil, errors.New("hendrycks_math process_results: document has no string solution")
	}
	gold, err := boxedAnswer(sol)
	if err != nil {
		// an exception in process_results stops lm-eval's run
		return nil, fmt.Errorf("hendrycks_math process_results: %w", err)
	}
	first, last := strings.Index(out, "$"), strings.LastIndex(out, "$")
	answer := out
	if first >= 0 && last > first {
		answer = out[first+1 : last]
	}
	em := 0
	if IsEquiv(answer, gold) {
		em = 1
	}
	return map[string]any{"exact_match": em}, nil
}

// IsEquiv is is_equiv: strip_string of both equal; when strip_string
// raises, the raw strings equal.
func IsEquiv(s1, s2 string) bool {
	a, err1 := StripString(s1)
	b, err2 := StripString(s2)
	if err1 != nil || err2 != nil {
		return s1 == s2
	}
	return a == b
}

// StripString is strip_string; an error stands for an exception.
func StripString(s string) (string, error) {
	s = strings.ReplaceAll(s, "\n", "")
	s = strings.ReplaceAll(s, "\\!", "")
	s = strings.ReplaceAll(s, "\\\\", "\\")
	s = strings.ReplaceAll(s, "tfrac", "frac")
	s = strings.ReplaceAll(s, "dfrac", "frac")
	s = strings.ReplaceAll(s, "\\left", "")
	s = strings.ReplaceAll(s, "\\right", "")
	s = strings.ReplaceAll(s, "^{\\circ}", "")
	s = strings.ReplaceAll(s, "^\\circ", "")
	s = strings.ReplaceAll(s, "\\$", "")
	s, err := mathequiv.RemoveRightUnits(s)
	if err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, "\\%", "")
	s = strings.ReplaceAll(s, "\\%", "")
	s = strings.ReplaceAll(s, " .", " 0.")
	s = strings.ReplaceAll(s, "{.", "{0.")
	if s == "" {
		return s, nil
	}
	if s[0] == '.' {
		s = "0" + s
	}
	if parts := strings.Split(s, "="); len(parts) == 2 && len([]rune(parts[0])) <= 2 {
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
	// fix_a_slash_b lets int()'s ValueError through.
	s, raised := mathequiv.FixASlashB(s)
	if raised {
		return "", mathequiv.ErrRaised
	}
	return s, nil
}
