// Package tmlu ports lm_eval/tasks/tmlu/default/utils.py: process_docs,
// which gives each document "questions", "choices" (columns A-D, and E and
// F when they hold something) and "goal" (the index of the answer letter).
package tmlu

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Columns are the keys _helper's dict has, in its order.
var Columns = []string{"questions", "choices", "goal"}

// Helper is process_docs's _helper.
func Helper(doc task.Doc) (task.Doc, error) {
	answers := []any{"A", "B", "C", "D"}
	choices := make([]any, 0, 6)
	for _, k := range []string{"A", "B", "C", "D"} {
		v, err := pydoc.Field(doc, k)
		if err != nil {
			return nil, err
		}
		choices = append(choices, v)
	}
	for _, k := range []string{"E", "F"} {
		if v := doc[k]; pyval.Truthy(v) { // doc.get(k, None)
			answers = append(answers, k)
			choices = append(choices, v)
		}
	}
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	goal, err := pydoc.Index(answers, a)
	if err != nil {
		return nil, err
	}
	return task.Doc{"questions": q, "choices": choices, "goal": int64(goal)}, nil
}

// ProcessDocs is process_docs: dataset.map(_helper).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, Helper)
	if err != nil {
		return nil, fmt.Errorf("tmlu process_docs: %w", err)
	}
	return out, nil
}
