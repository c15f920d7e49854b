// Package truthfulqa ports lm-eval's truthfulqa/utils.py: mc2's
// probability mass of the true answers, and the generation variant's
// process_docs_gen and BLEU/ROUGE process_results_gen.
package truthfulqa

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

func init() {

	task.RegisterProcessResults(task.Helper{File: "truthfulqa/utils.py", Function: "process_results_mc2", SHA256: "8db42f02270d1bb3282a66cc2a1a1a63ca7ddbf450e4fe71a07847fe7fed3b26"}, ProcessResultsMC2)
	task.RegisterProcessDocs(task.Helper{File: "truthfulqa/utils.py", Function: "process_docs_gen", SHA256: "b5c5ca3e9df8e0515a18653e267a91d6ad1e4770c0eb2ead089aff553ae32b82"}, ProcessDocsGen)
	task.RegisterProcessResults(task.Helper{File: "truthfulqa/utils.py", Function: "process_results_gen", SHA256: "9aa9c0b6e2453fd08860d8245e40a231557193c196688799d3830a8b76101995"}, ProcessResultsGen)
}

// ProcessResultsMC2 is truthfulqa/utils.py process_results_mc2: {"acc":
// the normalised probability mass of the true answers}, from the
// log-likelihoods of the document's mc2 choices (MC2Masked).
func ProcessResultsMC2(doc task.Doc, results []any) (map[string]any, error) {
	labels, err := truthfulqaLabels(doc)
	if err != nil {
		return nil, fmt.Errorf("truthfulqa process_results_mc2: %w", err)
	}
	lls := make([]float64, len(results))
	for i, r := range results {
		if lls[i], err = pydoc.LogLik(r); err != nil {
			return nil, fmt.Errorf("truthfulqa process_results_mc2: result %d: %w", i, err)
		}
	}
	acc, err := MC2Masked(lls, labels)
	if err != nil {
		return nil, err
	}
	return map[string]any{"acc": acc}, nil
}
