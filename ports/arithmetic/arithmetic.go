// Package arithmetic ports lm_eval/tasks/arithmetic/utils.py:
// process_docs, which normalises each context as the dataset's former
// loading script did (strip, blank lines removed, "Q:"/"A:" spelled out).
package arithmetic

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
)

// Columns are the keys _helper's dict has, in its order.
var Columns = []string{"context", "completion"}

// Helper is process_docs's _helper.
func Helper(doc task.Doc) (task.Doc, error) {
	ctx, err := pydoc.String(doc, "context")
	if err != nil {
		return nil, err
	}
	c, err := pydoc.Field(doc, "completion")
	if err != nil {
		return nil, err
	}
	ctx = pyre.Strip(ctx)
	ctx = strings.ReplaceAll(ctx, "\n\n", "\n")
	ctx = strings.ReplaceAll(ctx, "Q:", "Question:")
	ctx = strings.ReplaceAll(ctx, "A:", "Answer:")
	return task.Doc{"context": ctx, "completion": c}, nil
}

// ProcessDocs is process_docs: dataset.map(_helper).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, Helper)
	if err != nil {
		return nil, fmt.Errorf("arithmetic process_docs: %w", err)
	}
	return out, nil
}
