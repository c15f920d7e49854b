// Package putnam_axiom ports lm_eval/tasks/putnam_axiom/utils.py: the
// prompt, process_docs (the normalised boxed answer of the solution),
// process_variations, the four few-shot examples and process_results,
// which uses minerva_math's answer normalisation and sympy equivalence
// (ports/minerva_math) with its own final-answer pattern.
package putnam_axiom

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	minerva "github.com/lmeval/lmeval/ports/minerva_math"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	p, ok := doc["problem"].(string)
	if !ok {
		return nil, fmt.Errorf("putnam_axiom doc_to_text: problem is %T, want text", doc["problem"])
	}
	return "Problem:\n" + p + "\n\nSolution:", nil
}

// boxedAnswer is normalize_final_answer(remove_boxed(last_boxed_only_string(s)));
// an error where Python raises.
func boxedAnswer(s string) (string, error) {
	b, ok := minerva.LastBoxedOnlyString(s)
	if !ok {
		return "", errors.New("no \\boxed answer (TypeError)")
	}
	c, err := minerva.RemoveBoxed(b)
	if err != nil {
		return "", err
	}
	return minerva.NormalizeFinalAnswer(c), nil
}

// ProcessDocs is process_docs: problem, solution and the solution's
// normalised boxed answer.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		sol, ok := d["solution"].(string)
		if !ok {
			return nil, fmt.Errorf("putnam_axiom process_docs: document %d: solution is %T, want text", i, d["solution"])
		}
		ans, err := boxedAnswer(sol)
		if err != nil {
			return nil, fmt.Errorf("putnam_axiom process_docs: document %d: %w", i, err)
		}
		nd := make(task.Doc, len(d)+1)
		for k, v := range d {
			nd[k] = v
		}
		nd["problem"], nd["solution"], nd["answer"] = d["problem"], sol, ans
		out[i] = nd
	}
	return out, nil
}

// ProcessVariations is process_variations: the documents whose
// int(variation) is 1, through process_docs.
func ProcessVariations(docs []task.Doc) ([]task.Doc, error) {
	var keep []task.Doc
	for i, d := range docs {
		var v int64
		switch x := d["variation"].(type) {
		case int:
			v = int64(x)
		case int64:
			v = x
		case float64:
			v = int64(x)
		case bool:
			if x {
				v = 1
			}
		case string:
			n, ok := pynum.Int64(x)
			if !ok {
				return nil, fmt.Errorf("putnam_axiom process_variations: document %d: invalid literal for int() with base 10: %s", i, pyval.Repr(x))
			}
			v = n
		default:
			return nil, fmt.Errorf("putnam_axiom process_variations: document %d: variation is %T", i, d["variation"])
		}
		if v == 1 {
			keep = append(keep, d)
		}
	}
	return ProcessDocs(keep)
}

// ListFewshotSamples is list_fewshot_samples.
func ListFewshotSamples() ([]task.Doc, error) {
	var out []task.Doc
	if err := json.Unmarshal([]byte(fewshotSamplesJSON), &out); err != nil {
		return nil, err
	}
	return out, nil
}

var finalAnswer = pyre.MustCompile(`(?:Final Answer: The final answer is|The answer is:)\s*(.*?)(?=I hope it is correct\.)`)

// GetUnnormalizedAnswer is get_unnormalized_answer.
func GetUnnormalizedAnswer(text string) string {
	m := finalAnswer.Search(text + "I hope it is correct.")
	if m == nil {
		return "[invalidanswer]"
	}
	return pyre.Strip(m.Group(1))
}

// Answer is the answer process_results compares: the output's normalised
// boxed answer (ground_truth_boxed_answer) or, when that raises, its
// normalised "Final Answer: ..." (get_generated_answer).
func Answer(c string) string {
	ans, err := boxedAnswer(c)
	if err != nil {
		return minerva.NormalizeFinalAnswer(GetUnnormalizedAnswer(c))
	}
	return ans
}

// ProcessResults is process_results: the output's normalised boxed answer
// (or its "Final Answer: ..." when it has none) equivalent to the
// document's answer.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("putnam_axiom process_results: no results")
	}
	c, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("putnam_axiom process_results: result is %T, want the generated string", results[0])
	}
	ans := Answer(c)
	gold, ok := doc["answer"].(string)
	em := 0
	if ok && minerva.IsEquiv(ans, gold) {
		em = 1
	}
	return map[string]any{"exact_match": em}, nil
}
