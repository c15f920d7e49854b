package logiqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "logiqa/utils_logiqa.py", Function: "doc_to_text",
		SHA256: "7c11daa359395e2ab15ba7fa13978d4ec328ec10f4aac70351a74aa31f746311"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: "logiqa/utils_logiqa.py", Function: "doc_to_target",
		SHA256: "c1cc15fc2402a9efd2e03a3f9e79c8cc5a430d96d40af9d39986f5c6dd55634c"}, func(d task.Doc) (any, error) { return DocToTarget(d) })
}
