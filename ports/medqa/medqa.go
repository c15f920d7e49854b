// Package medqa ports lm_eval/tasks/medqa/preprocess_medqa.py:
// doc_to_text (the question and its four endings lettered A-D) and
// doc_to_target (the label).
package medqa

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text: f"Question: {sent1}\nA. {ending0}\n...D.
// {ending3}\nAnswer:".
func DocToText(doc task.Doc) (any, error) {
	answers := ""
	for i, k := range []string{"ending0", "ending1", "ending2", "ending3"} {
		v, err := pydoc.Field(doc, k)
		if err != nil {
			return nil, err
		}
		answers += string(rune('A'+i)) + ". " + pyval.Str(v) + "\n"
	}
	q, err := pydoc.Field(doc, "sent1")
	if err != nil {
		return nil, err
	}
	return "Question: " + pyval.Str(q) + "\n" + answers + "Answer:", nil
}

// DocToTarget is doc_to_target: doc["label"].
func DocToTarget(doc task.Doc) (any, error) { return pydoc.Field(doc, "label") }
