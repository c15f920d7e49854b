// Package cruxeval ports lm-eval's cruxeval/utils.py (tasks
// cruxeval_input, cruxeval_output, their _cot and _08 variants): the
// filters that turn a predicted input or output into an assertion program,
// the fixed few-shot examples, and pass_at_k, which runs the programs
// (internal/codeexec; cruxeval's own executor has code_eval's semantics).
package cruxeval

import (
	"context"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// answerOf is the CoT variants' first step: the text after the first
// [ANSWER], up to a [/ANSWER], stripped.
func answerOf(generation string, cot bool) string {
	if cot && strings.Contains(generation, "[ANSWER]") {
		generation = pyre.Strip(strings.Split(generation, "[ANSWER]")[1])
		if strings.Contains(generation, "[/ANSWER]") {
			generation = pyre.Strip(strings.Split(generation, "[/ANSWER]")[0])
		}
	}
	return generation
}

// firstLineNoComment is the common clean-up: the first line, cut at "#",
// stripped.
func firstLineNoComment(gen string) string {
	gen = strings.Split(gen, "\n")[0]
	return pyre.Strip(strings.Split(gen, "#")[0])
}

// ExtractCodeOutput is utils.extract_code_output: the document's code
// followed by an assertion that f(input) equals the predicted output.
func ExtractCodeOutput(doc map[string]any, generation string, cot bool) string {
	generation = answerOf(generation, cot)
	var gen string
	switch {
	case strings.Contains(generation, "assert f") && strings.Contains(generation, "=="):
		gen = pyre.Strip(strings.Split(generation, "==")[1])
	case strings.Contains(generation, "=="):
		gen = pyre.Strip(strings.Split(generation, "==")[1])
	default:
		gen = pyre.Strip(generation)
	}
	gen = strings.Trim(gen, "\"'")
	gen = firstLineNoComment(gen)
	return pyval.Str(doc["code"]) + "\nassert f(" + pyval.Str(doc["input"]) + ")==" + gen
}

// ExtractCodeInput is utils.extract_code_input: the document's code
// followed by an assertion that f(predicted input) equals the output.
func ExtractCodeInput(doc map[string]any, generation string, cot bool) string {
	generation = answerOf(generation, cot)
	beforeEq := func() string {
		s := strings.Split(generation, "==")[0]
		s = strings.ReplaceAll(s, "assert f", "")
		return pyre.Strip(strings.Trim(s, "()"))
	}
	var gen string
	switch {
	case strings.Contains(generation, "assert f"):
		if i := strings.Index(generation, "assert f("); i >= 0 {
			// Python indexes code points: count parentheses rune by rune.
			r := []rune(generation)
			start := len([]rune(generation[:i])) + len("assert f(")
			depth, end := 1, start
			for end < len(r) && depth > 0 {
				switch r[end] {
				case '(':
					depth++
				case ')':
					depth--
				}
				end++
			}
			if depth == 0 {
				gen = pyre.Strip(string(r[start : end-1]))
			} else {
				gen = pyre.Strip(strings.Split(string(r[start:]), ")")[0])
			}
		} else if strings.Contains(generation, "==") { // .index raised ValueError
			gen = beforeEq()
		} else {
			gen = pyre.Strip(strings.Trim(strings.ReplaceAll(generation, "assert f", ""), "()"))
		}
	case strings.Contains(generation, "=="):
		gen = beforeEq()
	default:
		gen = pyre.Strip(generation)
		if strings.HasPrefix(gen, "f(") && strings.HasSuffix(gen, ")") {
			gen = gen[2 : len(gen)-1]
		}
	}
	gen = firstLineNoComment(gen)
	return pyval.Str(doc["code"]) + "\nassert f(" + gen + ")==" + pyval.Str(doc["output"])
}

func build(resps [][]string, docs []map[string]any, fn func(map[string]any, string, bool) string, cot bool) ([][]string, error) {
	n := min(len(resps), len(docs)) // zip(strict=False)
	out := make([][]string, n)
	for i := 0; i < n; i++ {
		out[i] = make([]string, len(resps[i]))
		for j, r := range resps[i] {
			out[i][j] = fn(docs[i], r, cot)
		}
	}
	return out, nil
}

// BuildPredictionsInput is utils.build_predictions_input.
func BuildPredictionsInput(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, ExtractCodeInput, false)
}

// BuildPredictionsInputCot is utils.build_predictions_input_cot.
func BuildPredictionsInputCot(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, ExtractCodeInput, true)
}

// BuildPredictionsOutput is utils.build_predictions_output.
func BuildPredictionsOutput(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, ExtractCodeOutput, false)
}

// BuildPredictionsOutputCot is utils.build_predictions_output_cot.
func BuildPredictionsOutputCot(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, ExtractCodeOutput, true)
}

// Runner runs the programs of PassAtK: cruxeval's check_correctness
// settings (3 s per program) with lmeval's memory limit.
var Runner = &codeexec.Runner{}

// PassAtK is utils.pass_at_k: each prediction is a whole program (the
// references are not used); for every k, the mean over documents of the
// pass@k estimate — which, unlike code_eval's, is computed (as 1) even
// for documents with fewer than k programs — and 0 with no documents.
func PassAtK(ctx context.Context, predictions [][]string, ks []int) (map[string]float64, error) {
	var programs []string
	for _, l := range predictions {
		programs = append(programs, l...)
	}
	res, err := Runner.RunAll(ctx, programs)
	if err != nil {
		return nil, fmt.Errorf("pass_at_k: %w", err)
	}
	out := map[string]float64{}
	for _, k := range ks {
		sum, j := 0.0, 0
		for _, l := range predictions {
			c := 0
			for range l {
				if res[j].Passed {
					c++
				}
				j++
			}
			sum += codeexec.EstimatePassAtK(len(l), c, k)
		}
		v := 0.0
		if len(predictions) > 0 {
			v = sum / float64(len(predictions))
		}
		out[fmt.Sprintf("pass@%d", k)] = v
	}
	return out, nil
}

// fewshot returns the examples with is_fewshot set.
func fewshot(rows [][3]string) []map[string]any {
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		out[i] = map[string]any{"code": r[0], "input": r[1], "output": r[2], "is_fewshot": true}
	}
	return out
}

// ListFewshotSamplesOutput is utils.list_fewshot_samples_output.
func ListFewshotSamplesOutput() ([]map[string]any, error) {
	return fewshot([][3]string{
		{"def f(n):\n    return n", "17", "17"},
		{"def f(s):\n    return s + \"a\"", "x9j", "x9ja"},
	}), nil
}

// ListFewshotSamplesInput is utils.list_fewshot_samples_input.
func ListFewshotSamplesInput() ([]map[string]any, error) {
	return fewshot([][3]string{
		{"def f(my_list):\n    count = 0\n    for i in my_list:\n        if len(i) % 2 == 0:\n            count += 1\n    return count", "[\"mq\", \"px\", \"zy\"]", "3"},
		{"def f(s1, s2):\n    return s1 + s2", "\"ba\", \"nana\"", "banana"},
	}), nil
}
