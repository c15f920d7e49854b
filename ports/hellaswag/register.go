// Package hellaswag ports lm-eval's hellaswag/utils.py (process_docs, and
// the preprocess it applies), which lmeval's built-in hellaswag and
// several other task directories use.
package hellaswag

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "hellaswag/utils.py", Function: "process_docs",
		SHA256: "6e0be8de844d15018a3506cf91436fe29c4d7eb093c6f214224018493c2dfca7"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
	// lmeval's own: its built-in hellaswag.yaml lists the endings through
	// it (lm-eval's YAML uses the template "{{choices}}").
	task.RegisterDocFunc(task.Helper{File: "hellaswag/utils.py", Function: "doc_to_choice"}, func(d task.Doc) (any, error) {
		return DocToChoice(d)
	})
}
