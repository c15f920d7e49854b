// Package copal_id ports lm_eval/tasks/copal_id/utils.py's doc_to_text_id
// (the partial of doc_to_text with the Indonesian connectors), which is
// xcopa's doc_to_text; its doc_to_choice is xcopa's source too.
package copal_id

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/xcopa"
)

func init() {
	task.RegisterDocFunc(task.Helper{File: "copal_id/utils.py", Function: "doc_to_text_id",
		SHA256: "77f67cc5cc72bace07bbc630baa2e1889b980432dca521db0fd3c27f9463a60b"}, func(d task.Doc) (any, error) {
		return xcopa.DocToText(d, map[string]string{"cause": "karena", "effect": "maka"})
	})
}
