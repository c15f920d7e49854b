package aime

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessResults(task.Helper{File: "aime/utils.py", Function: "process_results",
		SHA256: "9de1e884abd9fae04868cdc4c98e73f759f1451217e075b19c0927acf162ad21"}, ProcessResults)
}
