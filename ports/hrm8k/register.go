package hrm8k

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "hrm8k/default/utils.py", Function: "doc_to_text",
		SHA256: "f05f2de24b0ed9c253ebfdd33248d1dabf204e6b4579e4ab848e437e69e935ac"}, docText(koText, "question", koTail))
	task.RegisterDocFunc(task.Helper{File: "hrm8k/default/utils.py", Function: "doc_to_text_mmmlu",
		SHA256: "60bb12be41b474e0d2cde6b6835784fa879b28b27c23e080f1c97e878dbd38a1"}, docText(koMMMLU, "question", koTail))
	task.RegisterDocFunc(task.Helper{File: "hrm8k/en/utils.py", Function: "doc_to_text",
		SHA256: "a951d8ad14580213ae9756b0e6ecb197c844a19b0e5435af28730f71036ee131"}, docText(enText, "original", enTail))
	task.RegisterDocFunc(task.Helper{File: "hrm8k/en/utils.py", Function: "doc_to_text_mmmlu",
		SHA256: "f798c63f8517fc28e6a4dcd6f244dd554e2ef1e6c959dd83a3981ded1522d992"}, docText(enMMMLU, "original", enTail))
	// default/ and en/ have the same doc_to_target and process_results
	task.RegisterDocFunc(task.Helper{File: "hrm8k/default/utils.py", Function: "doc_to_target",
		SHA256: "a7e15d7252300c66122bdffe00c6770cb042a48e9bed65385577e35ae0bdc055"}, DocToTarget)
	task.RegisterProcessResults(task.Helper{File: "hrm8k/default/utils.py", Function: "process_results",
		SHA256: "5e4537f971d91c8e3e11151ee8ff581af075334daca4f63f99fcd99f42fa1bba"}, ProcessResults)
}
