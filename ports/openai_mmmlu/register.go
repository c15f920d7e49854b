package openai_mmmlu

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/global_mmlu"
)

// fileSHA is the module's sha256: its functions exist only at run time.
// Its subjects.json lists MMLU's 57 subjects, global_mmlu.Subjects.
const fileSHA = "49aaaf0034ee7413385b68533fa22f5d664dc4c97f814985c353156f6ad6a85d"

func init() {
	for _, s := range global_mmlu.Subjects {
		task.RegisterProcessDocs(task.Helper{File: "openai-mmmlu/default/utils.py", Function: "process_" + s, SHA256: fileSHA}, func(docs []task.Doc) ([]task.Doc, error) { return FilterSubject(docs, s), nil })
	}
}
