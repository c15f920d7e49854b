package jfinqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "jfinqa/utils.py", Function: "doc_to_text",
		SHA256: "af2fcbc8e482dde02036ad622506b91b2135fbbc4935cf1c55df3e143890aab0"}, DocToText)
	task.RegisterProcessResults(task.Helper{File: "jfinqa/utils.py", Function: "process_results",
		SHA256: "5fab4a4843ec6f585d4d4e3544a947ca0595aaa93c9e31043361891ef46625bd"}, ProcessResults)
}
