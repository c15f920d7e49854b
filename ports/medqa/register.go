package medqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "medqa/preprocess_medqa.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "113f54e179e56353fd7ae49825ca9849a0344dccf6f89635054300ac0c83c41f"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "bba8360d6071ef8e2fc36b9085a5d37bb6656b55b49c8701d08e00b1f59358d5"}, DocToTarget)
}
