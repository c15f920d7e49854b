// Package gpqa registers lm_eval/tasks/leaderboard/gpqa's utils.py, whose
// process_docs is gpqa/zeroshot's with bracketed text removed from the
// answers (ported in lmeval/ports/gpqa).
package gpqa

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/gpqa"
)

func init() {
	task.RegisterMapDocs(task.Helper{File: "leaderboard/gpqa/utils.py", Function: "process_docs",
		SHA256: "7742d958fbd65b5e0743b115c448e1e7068eaae7f4984ef948cd26348853e741"}, gpqa.ProcessDocsGlobal(gpqa.Options{DropBrackets: true}))
}
