package tmlu

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "tmlu/default/utils.py", Function: "process_docs",
		SHA256: "44d259c04adc545ecfa0b48e9042c6e4bf8414b29201ec8e8c41e160dc81fc61"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
}
