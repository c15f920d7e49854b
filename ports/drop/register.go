package drop

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessDocs(task.Helper{File: "drop/utils.py", Function: "process_docs",
		SHA256: "45e607d0a847b3c873890b7a127d1c6d29ccbd883e70426394ee864979c5215f"}, ProcessDocs)
	task.RegisterProcessResults(task.Helper{File: "drop/utils.py", Function: "process_results",
		SHA256: "b2f6cd6901c0a83197ec3dc4fc6a4cc0d1e5082197e9b4476b895eb0fae35276"}, ProcessResults)
}
