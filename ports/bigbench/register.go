package bigbench

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessDocs(task.Helper{File: "bigbench/utils.py", Function: "filter_multiple_choice",
		SHA256: "4a70407eec5f837d0f63baca1ec22d7b3dbad7e7b74b9e996fc94f3b9a993fa9"}, FilterMultipleChoice)
}
