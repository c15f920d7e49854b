// Package pisa registers lm_eval/tasks/pisa/utils.py's helpers that lmeval
// cannot reproduce: PISA-Bench shows the model each question's picture,
// and its _llm_judged variants have OpenAI's API grade the answers.
package pisa

import "lmeval/harness/task"

func init() {
	task.RegisterHelper(task.Helper{File: "pisa/utils.py", Function: "pisa_doc_to_visual",
		SHA256: "92c6f3e201ae5490e15408e1dff16046c1737c49c3d4a8e6e0294d8c1ebb9453",
		Fn: task.Unavailable{Reason: "it shows the model each question's image (doc_to_image); " +
			"lmeval evaluates text-only language models"}})
	task.RegisterHelper(task.Helper{File: "pisa/utils.py", Function: "pisa_process_results_llm_judged",
		SHA256: "a9be30fc7fdca0c1db773df642a3171126dc45bc78ea912a0773cf5240b50276",
		Fn:     task.Unavailable{Reason: "it has a hosted judge model (OpenAI's API, gpt-4.1-mini by default) grade the answers"}})
}
