// Package mmlu_pro ports lm_eval/tasks/mmlu_pro/utils.py: the chain-of-
// thought prompt and few-shot target (format_cot_example and
// format_cot_target through functools.partial) and the per-subject
// process_docs filters (process_docs partially applied to a subject).
package mmlu_pro

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var letters = []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}

// FormatCOTExample is format_cot_example: the question, at most ten
// options "X. option" (stripped), then the example's chain of thought
// with "A: Let's think step by step." made "Answer: ..." (with the
// answer) or the "Answer: Let's think step by step." cue (without).
func FormatCOTExample(doc task.Doc, includingAnswer bool) (string, error) {
	return FormatCOTExampleLetters(doc, includingAnswer, letters, true)
}

// FormatCOTExampleLetters is format_cot_example with the option letters
// of the file's module-level choices: options past the last letter are
// dropped when stop (mmlu_pro/utils.py's `if i >= len(choices): break`),
// else they are an IndexError (mmlu-pro-plus/utils.py has no such check).
func FormatCOTExampleLetters(doc task.Doc, includingAnswer bool, letters []string, stop bool) (string, error) {
	q, ok := doc["question"].(string)
	if !ok {
		return "", fmt.Errorf("mmlu_pro: question is %T, want text", doc["question"])
	}
	opts, ok := doc["options"].([]any)
	if !ok {
		return "", fmt.Errorf("mmlu_pro: options is %T, want a list", doc["options"])
	}
	var b strings.Builder
	b.WriteString("Question:\n" + q + "\nOptions:\n")
	for i, o := range opts {
		if i >= len(letters) {
			if !stop {
				return "", fmt.Errorf("IndexError: list index out of range (option %d of %d, %d letters)", i, len(opts), len(letters))
			}
			break
		}
		s, ok := o.(string)
		if !ok {
			return "", fmt.Errorf("mmlu_pro: options[%d] is %T, want text", i, o)
		}
		b.WriteString(letters[i] + ". " + pyre.Strip(s) + "\n")
	}
	if includingAnswer {
		cot, err := cotContent(doc)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.ReplaceAll(cot, "A: Let's think step by step.", "Answer: Let's think step by step.") + "\n\n")
	} else {
		b.WriteString("Answer: Let's think step by step.")
	}
	return b.String(), nil
}

func cotContent(doc task.Doc) (string, error) {
	s, ok := doc["cot_content"].(string)
	if !ok {
		return "", fmt.Errorf("mmlu_pro: cot_content is %T, want text", doc["cot_content"])
	}
	return s, nil
}

// FormatCOTTarget is format_cot_target: the chain of thought without its
// "A: Let's think step by step. " lead.
func FormatCOTTarget(doc task.Doc) (string, error) {
	cot, err := cotContent(doc)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(cot, "A: Let's think step by step. ", ""), nil
}

// ProcessDocs is process_docs(dataset, subject): the documents whose
// "category" equals subject (Python ==: a non-text category never does).
func ProcessDocs(docs []task.Doc, subject string) []task.Doc {
	out := []task.Doc{}
	for _, d := range docs {
		if pyval.Equal(d["category"], subject) {
			out = append(out, d)
		}
	}
	return out
}

// Subjects maps each process_<name> partial to its subject.
var Subjects = map[string]string{
	"process_biology": "biology", "process_business": "business", "process_chemistry": "chemistry",
	"process_computer_science": "computer science", "process_economics": "economics",
	"process_engineering": "engineering", "process_health": "health", "process_history": "history",
	"process_law": "law", "process_math": "math", "process_other": "other",
	"process_philosophy": "philosophy", "process_physics": "physics", "process_psychology": "psychology",
}
