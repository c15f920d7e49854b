// Package medtext ports lm_eval/tasks/medtext: the prompt and completion
// (utils.py) and the perplexity variant's process_results
// (utils_perplexity.py). The generation variant's process_results needs
// BLEURT and BERTScore: unavailable.
package medtext

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
)

var (
	// DocToText is utils.doc_to_text.
	DocToText = medical.Field("Prompt")
	// DocToTarget is utils.doc_to_target.
	DocToTarget = medical.Field("Completion")
)

func init() {
	task.RegisterDocFunc(task.Helper{File: "medtext/utils.py", Function: "doc_to_text", SHA256: "b9829c95f5af63d5c012d3d6bd3b756c2fba1fb45c624f2eb0b2e35a613a5a23"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "medtext/utils.py", Function: "doc_to_target", SHA256: "6cec08a84f9408473de3ea94443b733a85c6db34ef1069f0b6250a3ca048da69"}, DocToTarget)
	task.RegisterUnavailable(task.Helper{File: "medtext/utils.py", Function: "process_results", SHA256: "b229ff56f4a63ff4e38b35b574d5f81b6dd5358a337b884619a949c7502a0f08"}, medical.Unavailable(medical.BLEURTBERTScore, "medtext_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "medtext/utils_perplexity.py", Function: "process_results", SHA256: "07c279ab7f75f7e771a9cd5fd509b67ceffbf8ef03db0bff2deaf040b74ba51b"}, medical.PerplexityOf(DocToTarget))
}
