// Package tmmluplus ports lm_eval/tasks/tmmluplus/default/utils.py:
// process_docs, which gives each document "questions", "choices" (columns
// A-D) and "goal" (the index of the answer letter).
package tmmluplus

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

// Columns are the keys _helper's dict has, in its order.
var Columns = []string{"questions", "choices", "goal"}

var answerList = []any{"A", "B", "C", "D"}

// Helper is process_docs's _helper.
func Helper(doc task.Doc) (task.Doc, error) {
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	choices := make([]any, 4)
	for i, k := range []string{"A", "B", "C", "D"} {
		if choices[i], err = pydoc.Field(doc, k); err != nil {
			return nil, err
		}
	}
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	goal, err := pydoc.Index(answerList, a)
	if err != nil {
		return nil, err
	}
	return task.Doc{"questions": q, "choices": choices, "goal": int64(goal)}, nil
}

// ProcessDocs is process_docs: dataset.map(_helper).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, Helper)
	if err != nil {
		return nil, fmt.Errorf("tmmluplus process_docs: %w", err)
	}
	return out, nil
}
