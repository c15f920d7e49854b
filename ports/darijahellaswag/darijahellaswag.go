// Package darijahellaswag ports lm_eval/tasks/darijahellaswag/utils.py's
// process_docs (egyhellaswag's is the same): the query is the activity
// label and the context, the choices the endings, gold the label.
package darijahellaswag

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// ProcessDoc is _process_doc.
func ProcessDoc(doc task.Doc) (task.Doc, error) {
	var v [4]any
	for i, k := range []string{"ctx", "activity_label", "endings", "label"} {
		x, ok := doc[k]
		if !ok {
			return nil, fmt.Errorf("KeyError: %s", pyval.Repr(k))
		}
		v[i] = x
	}
	label, ok1 := v[1].(string)
	ctx, ok2 := v[0].(string)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("TypeError: activity_label and ctx must be strings, not %s and %s", pyval.Repr(v[1]), pyval.Repr(v[0]))
	}
	gold, err := pyval.Int(v[3])
	if err != nil {
		return nil, err
	}
	return task.Doc{"query": label + ": " + ctx, "choices": v[2], "gold": gold}, nil
}

// ProcessDocs is process_docs: Dataset.map(_process_doc).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) { return pydoc.Map(docs, ProcessDoc) }

func init() {
	task.RegisterMapDocs(task.Helper{File: "darijahellaswag/utils.py", Function: "process_docs",
		SHA256: "eda1a207b7e2a9bc284398635679e5eb50a4acb5bf315a4fc3612c760d76c223"}, task.MapDocs{Fn: ProcessDocs, Columns: []string{"query", "choices", "gold"}})
}
