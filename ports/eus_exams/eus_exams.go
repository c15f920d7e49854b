// Package eus_exams ports lm_eval/tasks/eus_exams/utils.py: process_docs,
// which drops the examples with no answer.
package eus_exams

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

var (
	answers = []any{int64(0), int64(1), int64(2), int64(3)}
	noCands = []any{"", "", "", ""}
)

// ValidExample is process_docs's valid_example: the answer is one of 0-3
// (Python ==, so 1.0 and True count) and the candidates are not four
// empty strings.
func ValidExample(doc task.Doc) (bool, error) {
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return false, err
	}
	in := false
	for _, x := range answers {
		if pyval.Equal(a, x) {
			in = true
			break
		}
	}
	if !in {
		return false, nil
	}
	c, err := pydoc.Field(doc, "candidates")
	if err != nil {
		return false, err
	}
	return !pyval.Equal(c, noCands), nil
}

// ProcessDocs is process_docs: dataset.filter(valid_example).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return pydoc.Filter(docs, ValidExample)
}
