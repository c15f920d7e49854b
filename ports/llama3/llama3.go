// Package llama3 ports lm_eval/tasks/llama3's helpers: the per-subject
// process_docs partials of instruct/mmlu_<lang>/utils.py (the documents
// of one "mmlu_<lang>_chat.<subject>" subtask), the few-shot target of
// instruct/mmlu_pro/utils.py and the ARC-Challenge process_docs of
// instruct/arc_challenge/utils.py. (mmlu_pro's process_<subject> partials
// are those of ports/mmlu_pro.)
package llama3

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Langs are the languages of instruct/mmlu_<lang>/utils.py.
var Langs = []string{"de", "es", "fr", "hi", "it", "pt", "th"}

// ProcessDocs is mmlu_<lang>/utils.py's process_docs(dataset, subtask):
// the documents whose subtask_name equals "mmlu_<lang>_chat.<subtask>"
// (Python ==: a value of another type never does).
func ProcessDocs(docs []task.Doc, lang, subtask string) []task.Doc {
	want := "mmlu_" + lang + "_chat." + subtask
	out := []task.Doc{}
	for _, d := range docs {
		if pyval.Equal(d["subtask_name"], want) {
			out = append(out, d)
		}
	}
	return out
}

var bestAnswer = pyre.MustCompile(`The answer is \(([A-Z])\)\.`)

// FewshotToText is mmlu_pro/utils.py's fewshot_to_text: the example's
// cot_content without its "A: Let's think step by step." lead, stripped,
// its "The answer is (X)." made "The best answer is X.".
func FewshotToText(doc task.Doc) (string, error) {
	cot, ok := doc["cot_content"].(string)
	if !ok {
		return "", fmt.Errorf("llama3 mmlu_pro: cot_content is %T, want text", doc["cot_content"])
	}
	text := pyre.Strip(strings.TrimPrefix(cot, "A: Let's think step by step."))
	return bestAnswer.Sub(`The best answer is \1.`, text, 0)
}

var arcLabels = []any{"A", "B", "C", "D"}

// ArcProcessDocs is arc_challenge/utils.py's process_docs: the documents
// with four choices, their choice labels made A-D and a numeric answerKey
// ("1".."4") the matching letter.
func ArcProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		choices, ok := d["choices"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("llama3 arc_challenge: document %d: choices is %T, want a dict", i, d["choices"])
		}
		labels, ok := choices["label"].([]any)
		if !ok {
			return nil, fmt.Errorf("llama3 arc_challenge: document %d: choices.label is %T, want a list", i, choices["label"])
		}
		if len(labels) != 4 {
			continue
		}
		key := d["answerKey"]
		found := false
		for _, l := range arcLabels {
			if pyval.Equal(key, l) {
				found = true
			}
		}
		if !found {
			s, ok := key.(string)
			if !ok {
				return nil, fmt.Errorf("llama3 arc_challenge: document %d: answerKey is %T (int() of it is not ported)", i, key)
			}
			n, ok := pynum.Int64(s)
			if !ok {
				return nil, fmt.Errorf("llama3 arc_challenge: document %d: invalid literal for int() with base 10: %s", i, pyval.Repr(s))
			}
			j := n - 1
			if j < 0 {
				j += 4 // Python's negative index
			}
			if j < 0 || j >= 4 {
				return nil, fmt.Errorf("llama3 arc_challenge: document %d: list index out of range (answerKey %q)", i, s)
			}
			key = arcLabels[j]
		}
		nc := make(map[string]any, len(choices))
		for k, v := range choices {
			nc[k] = v
		}
		nc["label"] = append([]any(nil), arcLabels...)
		nd := make(task.Doc, len(d))
		for k, v := range d {
			nd[k] = v
		}
		nd["question"], nd["choices"], nd["answerKey"] = d["question"], nc, key
		out = append(out, nd)
	}
	return out, nil
}
