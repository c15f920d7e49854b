// Package medmcqa ports lm_eval/tasks/medmcqa/utils_medmcqa.py:
// doc_to_text, the question with its four options lettered A-D.
package medmcqa

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text: "Question: <question>\nChoices:\nA. <opa>\n
// ...D. <opd>\nAnswer:".
func DocToText(doc task.Doc) (any, error) {
	var opts [4]any
	for i, k := range []string{"opa", "opb", "opc", "opd"} {
		v, err := pydoc.Field(doc, k)
		if err != nil {
			return nil, err
		}
		opts[i] = v
	}
	q, err := pydoc.String(doc, "question")
	if err != nil {
		return nil, err
	}
	return QuestionChoices(q, opts[:]), nil
}

// QuestionChoices is the prompt medmcqa's doc_to_text (and careqa's, a copy
// of it) builds: "Question: " + question + "\nChoices:\n", a line
// f"{letter}. {option}" per option, then "Answer:".
func QuestionChoices(question string, options []any) string {
	prompt := "Question: " + question + "\nChoices:\n"
	for i, o := range options {
		prompt += string(rune('A'+i)) + ". " + pyval.Str(o) + "\n"
	}
	return prompt + "Answer:"
}
