// Package pubmedqa ports lm_eval/tasks/pubmedqa/preprocess_pubmedqa.py:
// the abstract's contexts and the question.
package pubmedqa

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	c, err := pydoc.Field(doc, "CONTEXTS")
	if err != nil {
		return nil, err
	}
	ctxs, err := pydoc.JoinStrs("\n", c)
	if err != nil {
		return nil, err
	}
	q, err := pydoc.Field(doc, "QUESTION")
	if err != nil {
		return nil, err
	}
	return fmt.Sprintf("Abstract: %s\nQuestion: %s\nAnswer:", ctxs, pyval.Str(q)), nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "pubmedqa/preprocess_pubmedqa.py", Function: "doc_to_text",
		SHA256: "102f9afbef448e05914bb174b508f3d33024197d0a3c868c7dab9ab046fefc90"}, DocToText)
}
