package arithmetic

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "arithmetic/utils.py", Function: "process_docs",
		SHA256: "9f74974fc4e884c85511e9272856b7938d682f73d520ceccdb507d0f5cc6aed2"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
}
