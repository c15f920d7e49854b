// Package glianorex ports lm_eval/tasks/glianorex/preprocess_glianorex.py:
// doc_to_text (the question and its options, in the options dict's
// order), doc_to_target (the answer letter) and the language filters.
package glianorex

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text: f"Question: {question}\n" + "".join(f"{k}.
// {v}\n" for k, v in options.items()) + "Answer:".
//
// The options dict's order is the dataset's: a struct column's fields in
// the order of its schema, which a task.Doc (a Go map) does not keep; the
// keys are the answer letters, so they are written in sorted order, which
// is the schema's for this dataset (A, B, C, D).
func DocToText(doc task.Doc) (any, error) {
	opts, err := pydoc.Dict(doc, "options")
	if err != nil {
		return nil, err
	}
	answers := ""
	for _, k := range pyval.SortedKeys(opts) {
		answers += k + ". " + pyval.Str(opts[k]) + "\n"
	}
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	return "Question: " + pyval.Str(q) + "\n" + answers + "Answer:", nil
}

// DocToTarget is doc_to_target: doc["answer_idx"].
func DocToTarget(doc task.Doc) (any, error) { return pydoc.Field(doc, "answer_idx") }

// FilterDataset is filter_dataset(dataset, lang): the documents whose
// "language" starts with lang.
func FilterDataset(docs []task.Doc, lang string) ([]task.Doc, error) {
	return pydoc.Filter(docs, func(d task.Doc) (bool, error) {
		s, err := pydoc.String(d, "language")
		if err != nil {
			return false, fmt.Errorf("filter_dataset: %w", err)
		}
		return strings.HasPrefix(s, lang), nil
	})
}
