package tmmluplus

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "tmmluplus/default/utils.py", Function: "process_docs",
		SHA256: "e1cd1eeb8eba92567b74290bdf62dd66d571f3d82ef30879ca15fd585ff40e35"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
}
