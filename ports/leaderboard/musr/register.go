package musr

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "leaderboard/musr/utils.py", Function: "doc_to_choice",
		SHA256: "70b7eb2779b643fd870fb78d4bf1d1e64d87900640b0552e36bcc879cc675cd7"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
	task.RegisterDocFunc(task.Helper{File: "leaderboard/musr/utils.py", Function: "doc_to_text",
		SHA256: "00e87707ca47c6b3b62e1c59444a9fe7673b80729c0a0b055b51b1c128e15244"}, func(d task.Doc) (any, error) { return DocToText(d) })
}
