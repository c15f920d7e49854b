package mmlu_pro_plus

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "mmlu-pro-plus/utils.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "40e65486a1298a70b479bab0774237b2955cdbb9ec64ca6193c4569aabb1f877"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: file, Function: "fewshot_to_text",
		SHA256: "f360e07842344e14b38a1cd3246d56b3eec017a381af09e3567b41bca67bd6d3"}, DocToText)
}
