// Package mediqa_qa2019 ports lm_eval/tasks/mediqa_qa2019: the question
// and its first reference answer (utils.py) and the perplexity variant's
// process_results (utils_perplexity.py). The generation variant's
// process_results needs BLEURT and BERTScore: unavailable.
package mediqa_qa2019

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

var (
	// DocToText is utils.doc_to_text.
	DocToText = medical.Field("QUESTION", "QuestionText")
	// DocToTarget is utils.doc_to_target (and utils_perplexity's).
	DocToTarget = medical.Field("QUESTION", "AnswerList", 0, "Answer", "AnswerText")
)

// ProcessResults is utils_perplexity.process_results: the weighted
// perplexities and the log-likelihood itself for perplexity.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	t, err := DocToTarget(doc)
	if err != nil {
		return nil, err
	}
	m, err := medical.Perplexity(results, t)
	if err != nil {
		return nil, err
	}
	m["perplexity"], _ = pydoc.LogLik(results[0])
	return m, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "mediqa_qa2019/utils.py", Function: "doc_to_text", SHA256: "6f87db1e4e4ef31b8da39b7af2ee6b9c8f1903761b1086cda7702f6066307d0c"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "mediqa_qa2019/utils.py", Function: "doc_to_target", SHA256: "5ba34a85e22897fccd3d1e0738ef8f19f79c7730b14c69d7ffd15bea02bd69cb"}, DocToTarget)
	task.RegisterUnavailable(task.Helper{File: "mediqa_qa2019/utils.py", Function: "process_results_gen", SHA256: "ff12ae80558f6025aff2439431e2ff914633ce426dccbca3ae1a396df03819bb"}, medical.Unavailable(medical.BLEURTBERTScore, "mediqa_qa2019_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "mediqa_qa2019/utils_perplexity.py", Function: "process_results", SHA256: "ad8d961b1870469440689f254719740cc716194705a949a13c8dd0cc6a7880c6"}, ProcessResults)
}
