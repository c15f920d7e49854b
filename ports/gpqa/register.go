package gpqa

import "github.com/lmeval/lmeval/harness/task"

// Each registration names the lm-eval file (relative to lm_eval/tasks/)
// and the function it ports, with the sha256 of the function's source.
// gpqa/cot_n_shot's port serves cot_zeroshot and generative too (the
// same source; see docs/helpers.md).
func init() {
	task.RegisterMapDocs(task.Helper{File: "gpqa/zeroshot/utils.py", Function: "process_docs",
		SHA256: "7742d958fbd65b5e0743b115c448e1e7068eaae7f4984ef948cd26348853e741"}, ProcessDocsGlobal(Options{}))
	task.RegisterMapDocs(task.Helper{File: "gpqa/cot_n_shot/utils.py", Function: "process_docs",
		SHA256: "c8c370cc767c01bad7a9b8baf9a2efd5705f68ce50b9e9c57efd8ab5869f1a86"}, ProcessDocsGlobal(Options{ChoicesList: true}))
	task.RegisterProcessDocs(task.Helper{File: "gpqa/n_shot/utils.py", Function: "process_docs",
		SHA256: "f3cfada8fb11dd0b0a4de506b284c3f08e0d91f7e7e2b00ca421662747b31362"}, NShotProcessDocs())
}
