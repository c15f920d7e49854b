package race

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "race/preprocess_race.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "255fff4979c5e129fdff7361f4443d69cf1223838b685159c663965f0f33f8f6"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice",
		SHA256: "f12ba063ce9f37aa7466388921db61d2d9fd1599322fbcaf6f42beb0aefe8171"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "dba48e9479c918f07c4dbf86c90d3f5c5ae493f169b37523618d5573674c2ca3"}, func(d task.Doc) (any, error) { return DocToTarget(d) })
}
