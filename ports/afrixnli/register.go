package afrixnli

import "github.com/lmeval/lmeval/harness/task"

func init() {
	target := func(labels []string) task.DocFunc {
		return func(d task.Doc) (any, error) { return DocToTarget(d, labels) }
	}
	task.RegisterDocFunc(task.Helper{File: "afrixnli/direct/prompt_1/utils.py", Function: "doc_to_target",
		SHA256: "06423b8aecdd46dc46761694e1caca033f40717f8a14a1c80303d1cbc980ca1a"}, target(NLILabels))
	task.RegisterDocFunc(task.Helper{File: "afrixnli/anli prompt/en-direct/utils.py", Function: "doc_to_target",
		SHA256: "1844af2023274a57d8b21fe641bbcf9ec5a40c7a37490647cf08dc9b8cbadde5"}, target(TrueFalseLabels))
	task.RegisterDocFunc(task.Helper{File: "afrixnli/direct/prompt_5/utils.py", Function: "doc_to_target",
		SHA256: "e7abf718ac395dbc7f9dc12124ff2742617026f2a7b416667e9ad16cbb5e9b6b"}, target(InconclusiveLabels))
	task.RegisterDocFunc(task.Helper{File: "afrixnli/lai prompt/direct/utils.py", Function: "doc_to_text",
		SHA256: "294773a858737f01c00bf4ad738a786806a3e6cb397c2e3fdec31dc4cf31b53d"}, func(d task.Doc) (any, error) { return DocToText(d) })
}
