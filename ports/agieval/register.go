package agieval

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "agieval/utils.py"
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results",
		SHA256: "70f633386eb4da81e9451cb9a909db72b7bb3670b134095a582824b03be03bf2"}, ProcessResults)
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results_mcqa",
		SHA256: "447fe7dd5c7fa3fb05f61e2aab78e77fb034e3f5803cbb2f4cfe6ffa8376cadf"}, ProcessResultsMCQA)
}
