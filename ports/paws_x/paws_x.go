// Package paws_x ports lm_eval/tasks/paws-x/utils.py's
// process_docs_paraphrases: the documents with both sentences,
// detokenized, the first without its final . , or ; and the second
// starting lower-case.
package paws_x

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/ibero"
)

// ProcessDocsParaphrases is process_docs_paraphrases.
func ProcessDocsParaphrases(docs []task.Doc) ([]task.Doc, error) {
	return ibero.Paraphrases(docs, "sentence1", "sentence2", true)
}

func init() {
	task.RegisterProcessDocs(task.Helper{File: "paws-x/utils.py", Function: "process_docs_paraphrases",
		SHA256: "9fef4c7de8cffbb569f56c7b854a806252c0a02ccc248018f1e172b953f2c897"}, ProcessDocsParaphrases)
}
