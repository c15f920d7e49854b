// Package icelandic_winogrande ports
// lm_eval/tasks/icelandic_winogrande/preprocess_winogrande.py's
// doc_to_target (its doc_to_text and doc_to_choice are winogrande's, whose
// ports lmeval/tasks has): the sentence after the blank, stripped, with a
// leading space unless it is just ".".
package icelandic_winogrande

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/xwinograd"
)

// DocToTarget is doc_to_target.
func DocToTarget(doc task.Doc) (any, error) {
	t, err := xwinograd.DocToTarget(doc)
	if err != nil {
		return nil, err
	}
	if s := t.(string); s != "." {
		return " " + s, nil
	}
	return t, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "icelandic_winogrande/preprocess_winogrande.py", Function: "doc_to_target",
		SHA256: "fed4540aa61e62ce051cd746e64bed572d8295f6df5c19c089d65e55630a802d"}, DocToTarget)
}
