// Package csatqa ports lm_eval/tasks/csatqa/utils.py: process_docs, which
// writes each document's instruction prompt (context, question and the
// five options) into "question", with the option labels as "choices" and
// the 0-based answer as "gold".
package csatqa

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Columns are the keys _process_doc's dict has, in its order.
var Columns = []string{"question", "choices", "gold"}

// ProcessDoc is process_docs's _process_doc.
func ProcessDoc(doc task.Doc) (task.Doc, error) {
	var f [7]string
	for i, k := range []string{"context", "question", "option#1", "option#2", "option#3", "option#4", "option#5"} {
		v, err := pydoc.Field(doc, k)
		if err != nil {
			return nil, err
		}
		f[i] = pyval.Str(v) // an f-string field
	}
	instruction := "다음을 읽고 정답으로 알맞은 것을 고르시요.\n" +
		"### Context: " + f[0] + "\n" +
		"### Question: " + f[1] + "\n" +
		"### Options:\n" +
		"(1) " + f[2] + "\n(2) " + f[3] + "\n(3) " + f[4] + "\n(4) " + f[5] + "\n(5) " + f[6] + "\n" +
		"### Answer: 주어진 문제의 정답은"
	g, err := pydoc.Field(doc, "gold")
	if err != nil {
		return nil, err
	}
	gold, err := pyval.Int(g)
	if err != nil {
		return nil, err
	}
	return task.Doc{
		"question": instruction,
		"choices":  []any{"(1)", "(2)", "(3)", "(4)", "(5)"},
		"gold":     gold - 1,
	}, nil
}

// ProcessDocs is process_docs: dataset.map(_process_doc).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, ProcessDoc)
	if err != nil {
		return nil, fmt.Errorf("csatqa process_docs: %w", err)
	}
	return out, nil
}
