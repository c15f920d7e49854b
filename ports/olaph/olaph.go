// Package olaph ports lm_eval/tasks/olaph: the question and free-form
// answer, the first tenth of the split (utils.py), and the perplexity
// variant's process_results (utils_perplexity.py). The generation
// variant's process_results needs BLEURT and BERTScore: unavailable.
package olaph

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
)

var (
	// DocToText is utils.doc_to_text.
	DocToText = medical.Field("Question")
	// DocToTarget is utils.doc_to_target.
	DocToTarget = medical.Field("Free_form_answer")
)

// ProcessDocs is utils.process_docs: the first int(0.1 * len) documents
// (its comment says 1%).
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return docs[:int(0.1*float64(len(docs)))], nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "olaph/utils.py", Function: "doc_to_text", SHA256: "1ce5b35f5265d44a79fe3fcb294d29ff37f58f1c75f0a3382610a0628f7cc728"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "olaph/utils.py", Function: "doc_to_target", SHA256: "8b867978eb30eab0699d4e24fa17dd31976688ab2bb238fdebca1439792b1851"}, DocToTarget)
	task.RegisterProcessDocs(task.Helper{File: "olaph/utils.py", Function: "process_docs", SHA256: "61c593d762b93d969a79e1347c0a9910085a1ef98341a13c872a1da0c145440d"}, ProcessDocs)
	task.RegisterUnavailable(task.Helper{File: "olaph/utils.py", Function: "process_results", SHA256: "8c9d8514d90a8b04a0aa634524d89c5f51a18a4668a1317141553ad60b476fc2"}, medical.Unavailable(medical.BLEURTBERTScore, "olaph_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "olaph/utils_perplexity.py", Function: "process_results", SHA256: "07c279ab7f75f7e771a9cd5fd509b67ceffbf8ef03db0bff2deaf040b74ba51b"}, medical.PerplexityOf(DocToTarget))
}
