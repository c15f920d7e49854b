package logiqa2

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "logiqa2/utils_logiqa2.py", Function: "doc_to_text",
		SHA256: "682c7f92eafc363a51386f80dbc5276acb7f948862bbda37c789e5e75314bfac"}, func(d task.Doc) (any, error) { return DocToText(d) })
}
