// Package mts_dialog ports lm_eval/tasks/mts_dialog: the dialogue and its
// section text (utils.py) and the perplexity variant's process_results
// (utils_perplexity.py). The generation variant's process_results needs
// BLEURT and BERTScore: unavailable.
package mts_dialog

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
)

var (
	// DocToText is utils.doc_to_text.
	DocToText = medical.Field("dialogue")
	// DocToTarget is utils.doc_to_target.
	DocToTarget = medical.Field("section_text")
)

func init() {
	task.RegisterDocFunc(task.Helper{File: "mts_dialog/utils.py", Function: "doc_to_text", SHA256: "a1f3720acfa56deb753c703d9d97f979dcd7cb8e667add5f96c79e3df9d115fb"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "mts_dialog/utils.py", Function: "doc_to_target", SHA256: "ce8ca77156474c040b8ee85910a93acfe0999212abf8a020360b1c608c8d03a0"}, DocToTarget)
	task.RegisterUnavailable(task.Helper{File: "mts_dialog/utils.py", Function: "process_results", SHA256: "d6be26ab77ea0308faf687287013bb936523e87e9e7cfa787f23b0b100513e0e"}, medical.Unavailable(medical.BLEURTBERTScore, "mts_dialog_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "mts_dialog/utils_perplexity.py", Function: "process_results", SHA256: "07c279ab7f75f7e771a9cd5fd509b67ceffbf8ef03db0bff2deaf040b74ba51b"}, medical.PerplexityOf(DocToTarget))
}
