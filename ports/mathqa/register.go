package mathqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "mathqa/utils.py", Function: "doc_to_choice",
		SHA256: "44fb50be9156fc0b6d87e5daace559ed778d051a09daa3d2ac993307d455cd78"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
}
