// Package mmlusr ports lm_eval/tasks/mmlusr's utils.py (the same file in
// answer_only/, question_only/ and question_and_answer/): process_docs,
// which gathers the four choice columns of the header-less CSVs into
// "choices" (None as "") and strips the answer letter.
package mmlusr

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Columns are the keys _helper's dict has, in its order.
var Columns = []string{"choices", "answer"}

// Helper is process_docs's _helper: {"choices": [choice1 or "", ...,
// choice4 or ""], "answer": (answer or "").strip()}.
func Helper(doc task.Doc) (task.Doc, error) {
	choices := make([]any, 4)
	for i := range choices {
		v, err := pydoc.Field(doc, fmt.Sprintf("choice%d", i+1))
		if err != nil {
			return nil, err
		}
		if !pyval.Truthy(v) {
			v = ""
		}
		choices[i] = v
	}
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	if !pyval.Truthy(a) {
		a = ""
	}
	s, ok := a.(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: '%s' object has no attribute 'strip'", pydoc.TypeName(a))
	}
	return task.Doc{"choices": choices, "answer": pyre.Strip(s)}, nil
}

// ProcessDocs is process_docs: dataset.map(_helper).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, Helper)
	if err != nil {
		return nil, fmt.Errorf("mmlusr process_docs: %w", err)
	}
	return out, nil
}
