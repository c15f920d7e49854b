package kormedmcqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterFilter(task.Helper{File: "kormedmcqa/utils.py", Function: "ExtractChoiceFilter",
		SHA256: "35a593525649928aa4609bb4c529dc8cbbb6caeb30f9ff4903e7fc72e13cd9e4"}, NewExtractChoiceFilter)
}
