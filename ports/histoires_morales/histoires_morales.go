// Package histoires_morales ports lm_eval/tasks/histoires_morales/utils.py's
// process_docs, whose source moral_stories/utils.py shares: the norm,
// situation and intention capitalised as the context, the moral and the
// immoral action as the choices, label 0.
package histoires_morales

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pystr"
)

// ProcessDocs is process_docs.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		var f [3]string
		for j, k := range []string{"norm", "situation", "intention"} {
			s, ok := d[k].(string)
			if !ok {
				return nil, fmt.Errorf("process_docs: document %d: %s is %T, want text", i, k, d[k])
			}
			f[j] = pystr.Capitalize(s)
		}
		nd := make(task.Doc, len(d)+3)
		for k, v := range d {
			nd[k] = v
		}
		nd["query"] = f[0] + " " + f[1] + " " + f[2]
		nd["choices"] = []any{d["moral_action"], d["immoral_action"]}
		nd["label"] = 0
		out[i] = nd
	}
	return out, nil
}

func init() {
	// moral_stories/utils.py:process_docs is the same source
	task.RegisterMapDocs(task.Helper{File: "histoires_morales/utils.py", Function: "process_docs",
		SHA256: "e0e6ada785af33c326adbad7f376b93c9514ecebf44b896702b556a9f03db15e"}, task.MapDocs{Fn: ProcessDocs, Columns: []string{"query", "choices", "label"}})
}
