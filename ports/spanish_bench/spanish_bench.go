// Package spanish_bench ports lm_eval/tasks/spanish_bench/utils.py's
// paraphrase, COPA and XLSum document cleaning (its NLI cleaning and
// ROUGE-1 helpers are catalan_bench's and galician_bench's sources).
package spanish_bench

import (
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/catalan_bench"  // process_doc_nli, rouge1
	_ "github.com/lmeval/lmeval/ports/galician_bench" // rouge1_agg
	"github.com/lmeval/lmeval/ports/internal/ibero"
)

func init() {

	task.RegisterProcessDocs(task.Helper{File: "spanish_bench/utils.py", Function: "process_docs_paraphrases", SHA256: "9fef4c7de8cffbb569f56c7b854a806252c0a02ccc248018f1e172b953f2c897"}, func(d []task.Doc) ([]task.Doc, error) { return ibero.Paraphrases(d, "sentence1", "sentence2", true) })
	task.RegisterProcessDocs(task.Helper{File: "spanish_bench/utils.py", Function: "process_docs_copa_es", SHA256: "102f8d0652ec81e4ba8b597bec875f17e3cd745a55574bb7ca58075fbd0960b8"}, ibero.CopaLower)
	task.RegisterProcessDocs(task.Helper{File: "spanish_bench/utils.py", Function: "process_xlsum", SHA256: "c49dcd3b988312cd5957150f04a97041c4e54eb582f2608a78476a69a063babc"}, func(d []task.Doc) ([]task.Doc, error) { return ibero.Summaries(d, "text", "summary") })
}
