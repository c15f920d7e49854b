// Package bigbench ports lm_eval/tasks/bigbench/utils.py:
// filter_multiple_choice, which keeps the documents that have
// multiple-choice targets (the multiple_choice variants' process_docs).
package bigbench

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
)

// FilterMultipleChoice is filter_multiple_choice.
func FilterMultipleChoice(docs []task.Doc) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		l, ok := d["multiple_choice_targets"].([]any)
		if !ok {
			return nil, fmt.Errorf("bigbench: document %d: multiple_choice_targets is %T, want a list", i, d["multiple_choice_targets"])
		}
		if len(l) > 0 {
			out = append(out, d)
		}
	}
	return out, nil
}
