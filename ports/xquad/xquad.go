// Package xquad ports lm_eval/tasks/xquad/utils.py: process_results_qa,
// SQuAD v2's exact match and F1 of the answer against the first gold
// answer.
package xquad

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/squad"
)

// ProcessResultsQA is process_results_qa: reference doc["answers"]["text"][0].
func ProcessResultsQA(doc task.Doc, results []any) (map[string]any, error) {
	ref, err := pyfn.PathStr(doc, "answers", "text", 0)
	if err != nil {
		return nil, err
	}
	return squad.Results(ref, results)
}

func init() {
	task.RegisterProcessResults(task.Helper{File: "xquad/utils.py", Function: "process_results_qa",
		SHA256: "83c24dc6018448132b9b0a559c273836598ea0ff8862548715e8bed19c1a2d3c"}, ProcessResultsQA)
}
