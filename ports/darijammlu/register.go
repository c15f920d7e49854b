package darijammlu

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "darijammlu/utils.py", Function: "doc_to_text",
		SHA256: "ee8ee9fa8fb316c19243f7b2bd4150751c7d952a52b949d87608c1e2e8366bc7"}, func(d task.Doc) (any, error) { return DocToText(d, Prompt, "subject_darija") })
	// egymmlu/utils.py's doc_to_choice is the same.
	task.RegisterDocFunc(task.Helper{File: "darijammlu/utils.py", Function: "doc_to_choice",
		SHA256: "4331c31543a7a45119c25607c7ab6b9683d2bc8227defd26a1fd86dbd492e43f"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
}
