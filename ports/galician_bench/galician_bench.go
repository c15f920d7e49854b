// Package galician_bench ports lm_eval/tasks/galician_bench/utils.py: the
// paraphrase (Parafrases-gl, PAWS-gl), NLI and summarisation document
// cleaning, ROUGE-1's aggregation (its rouge1 is catalan_bench's source),
// and TruthfulQA-gl's documents and scores.
package galician_bench

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/catalan_bench" // rouge1 and process_docs_gen, the same sources
	"github.com/lmeval/lmeval/ports/internal/ibero"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/rouge"
	"github.com/lmeval/lmeval/ports/truthfulqa"
	"github.com/lmeval/lmeval/python/pyval"
)

var nliLabels = map[string]int64{"entailment": 0, "neutral": 1, "contradiction": 2}

// ProcessDocNLI is process_doc_nli: sentence1/sentence2, gold_label to int.
func ProcessDocNLI(docs []task.Doc) ([]task.Doc, error) {
	return ibero.NLI(docs, "sentence1", "sentence2", "gold_label", nliLabels)
}

// ProcessResultsMC2 is the split form of process_results_mc2 (true answers
// first, Python's sums): truthfulqa.MC2.
func ProcessResultsMC2(doc task.Doc, results []any) (map[string]any, error) {
	lv, err := pyfn.Path(doc, "mc2_targets", "labels")
	if err != nil {
		return nil, err
	}
	l, ok := pyfn.AsList(lv)
	if !ok {
		return nil, fmt.Errorf("TypeError: mc2_targets.labels is %s", pydoc.TypeName(lv))
	}
	labels := make([]int64, len(l))
	for i, v := range l {
		if labels[i], err = pyval.Int(v); err != nil {
			return nil, err
		}
	}
	lls, err := pyfn.LogLiks(results)
	if err != nil {
		return nil, err
	}
	acc, err := truthfulqa.MC2(lls, labels)
	if err != nil {
		return nil, err
	}
	return map[string]any{"acc": acc}, nil
}

func init() {

	// Also spanish_bench's rouge1_agg (the same source).
	task.RegisterAggregation(task.Helper{File: "galician_bench/utils.py", Function: "rouge1_agg", SHA256: "58ab3dd33a954797c10bac45d997aa7dc56bb9558c57cf8773e7f7101cefded9"}, rouge.Agg)
	task.RegisterProcessDocs(task.Helper{File: "galician_bench/utils.py", Function: "process_doc_nli", SHA256: "a7b100341cf1bb30299cbf020dbd66612effda76609c81ca83686496f46b4cce"}, ProcessDocNLI)
	task.RegisterProcessDocs(task.Helper{File: "galician_bench/utils.py", Function: "process_docs_paraphrases", SHA256: "a72a761d6ec4b5d07aae3532e46982bfc8fa42cc25f756d97a2252c8d0bda248"}, func(d []task.Doc) ([]task.Doc, error) { return ibero.Paraphrases(d, "Frase", "Paráfrase", true) })
	task.RegisterProcessDocs(task.Helper{File: "galician_bench/utils.py", Function: "process_docs_paws", SHA256: "008efff7779fdde828ed498917708776c8fe7fd41052a49a50117daa23bfc112"}, func(d []task.Doc) ([]task.Doc, error) { return ibero.Paraphrases(d, "sentence1", "sentence2", true) })
	task.RegisterProcessDocs(task.Helper{File: "galician_bench/utils.py", Function: "process_summarization", SHA256: "d6677d7d2a7821804841fbc8983e193d41e3cdb46e794305fa9e63ef47f0f436"}, func(d []task.Doc) ([]task.Doc, error) { return ibero.Summaries(d, "text", "summary") })
	// Also tinyBenchmarks' utils_truthfulqa.py (the same source).
	task.RegisterProcessResults(task.Helper{File: "galician_bench/utils.py", Function: "process_results_mc2", SHA256: "f1a9ba0850bb10d0bca0676caa17248374667610551bef7af952424c62b25840"}, ProcessResultsMC2)
	task.RegisterProcessResults(task.Helper{File: "galician_bench/utils.py", Function: "process_results_gen", SHA256: "9aa9c0b6e2453fd08860d8245e40a231557193c196688799d3830a8b76101995"}, truthfulqa.ProcessResultsGen)
}
