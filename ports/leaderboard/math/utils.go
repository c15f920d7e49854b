// Package leaderboardmath ports lm-eval's leaderboard/math/utils.py (the
// Open LLM Leaderboard's math_hard): Level 5 problems of MATH with the
// Minerva prompt, exact_match (math_verify) and exact_match_original
// (Minerva's answer normalisation and sympy equivalence).
package leaderboardmath

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	minerva "github.com/lmeval/lmeval/ports/minerva_math"
)

// InvalidAnswer is utils.py's INVALID_ANSWER.
const InvalidAnswer = minerva.InvalidAnswer

// DocToText is doc_to_text (the same as minerva_math's).
func DocToText(doc task.Doc) (string, error) { return minerva.DocToText(doc) }

// ProcessDocs is process_docs: the Level 5 documents, mapped (every column
// kept) to problem, solution and answer, the solution's boxed answer
// without normalisation ("[invalidanswer]" where there is none).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	var out []task.Doc
	for i, d := range docs {
		lv, ok := d["level"]
		if !ok {
			return nil, fmt.Errorf("leaderboard math process_docs: document %d has no \"level\"", i)
		}
		if lv != "Level 5" {
			continue
		}
		sol, ok1 := d["solution"].(string)
		prob, ok2 := d["problem"].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("leaderboard math process_docs: document %d: want string fields problem and solution", i)
		}
		nd := make(task.Doc, len(d)+1)
		for k, v := range d {
			nd[k] = v
		}
		nd["problem"], nd["solution"], nd["answer"] = prob, sol, RemoveBoxed(LastBoxedOnlyString(sol))
		out = append(out, nd)
	}
	return out, nil
}

// LastBoxedOnlyString is this file's last_boxed_only_string, which returns
// INVALID_ANSWER where minerva_math's returns None.
func LastBoxedOnlyString(s string) string {
	b, ok := minerva.LastBoxedOnlyString(s)
	if !ok {
		return InvalidAnswer
	}
	return b
}

// RemoveBoxed is this file's remove_boxed, which returns INVALID_ANSWER on
// a failed assertion.
func RemoveBoxed(s string) string {
	r, err := minerva.RemoveBoxed(s)
	if err != nil {
		return InvalidAnswer
	}
	return r
}

// ListFewshotSamples is list_fewshot_samples: minerva_math's four
// examples, each with level "Level 5".
func ListFewshotSamples() ([]task.Doc, error) {
	out, err := minerva.ListFewshotSamples()
	for _, d := range out {
		d["level"] = "Level 5"
	}
	return out, err
}

// ProcessResults is process_results: exact_match from math_verify
// (minerva_math.MathVerifyLatexGold, see docs/math.md) and exact_match_original
// from process_result_v1.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("leaderboard math process_results: no results")
	}
	out, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("leaderboard math process_results: result is %T, want the generated string", results[0])
	}
	sol, ok := doc["solution"].(string)
	if !ok {
		return nil, errors.New("leaderboard math process_results: document has no string solution")
	}
	em := 0
	if minerva.MathVerifyLatexGold(sol, out) {
		em = 1
	}
	// process_result_v1's exceptions count as 0 in utils.py
	orig := 0
	if gold, ok := doc["answer"].(string); ok {
		orig = ProcessResultV1(gold, out)
	}
	return map[string]any{"exact_match": em, "exact_match_original": orig}, nil
}

// ProcessResultV1 is process_result_v1: the normalised final answer
// against the normalised gold answer, equal as strings or by is_equiv.
func ProcessResultV1(goldAnswer, output string) int {
	answer := minerva.NormalizeFinalAnswer(minerva.GetUnnormalizedAnswer(output))
	gold := minerva.NormalizeFinalAnswer(goldAnswer)
	if answer == InvalidAnswer {
		return 0
	}
	if strings.TrimFunc(answer, isSpace) == strings.TrimFunc(gold, isSpace) || minerva.IsEquiv(answer, gold) {
		return 1
	}
	return 0
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' ||
		r >= 0x1c && r <= 0x1f || r == 0x85 || r == 0xa0 || r == 0x1680 ||
		r >= 0x2000 && r <= 0x200a || r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000
}
