package mutual

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessDocs(task.Helper{File: "mutual/utils.py", Function: "process_docs",
		SHA256: "c95d20f0a8cf9e620ad042202a729488aa4ffa61881f9490ebe1a19a473ad734"}, ProcessDocs)
	task.RegisterProcessResults(task.Helper{File: "mutual/utils.py", Function: "process_results",
		SHA256: "53caf6532aa775629cdc61862544c4df8c1c0342c40e6d1aa34ae017b920bfb7"}, ProcessResults)
}
