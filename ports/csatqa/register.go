package csatqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "csatqa/utils.py", Function: "process_docs",
		SHA256: "573475dc339a35b846ea4a242b0dfc413e5d3505478ad8e59247a089d9fec89c"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
}
