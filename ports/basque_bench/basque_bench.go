// Package basque_bench ports lm_eval/tasks/basque_bench/utils.py: XCOPA's
// Basque prompt and lower-cased choices, and PAWS-X's documents.
package basque_bench

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/ibero"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var connectors = map[string]string{"cause": " Izan ere,", "effect": " Beraz,"}

// XcopaDocToText is xcopa_doc_to_text.
func XcopaDocToText(doc task.Doc) (any, error) {
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	s, _ := q.(string)
	conn, ok := connectors[s]
	if _, isStr := q.(string); !ok || !isStr {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(q))
	}
	p, err := pyfn.Str(doc, "premise")
	if err != nil {
		return nil, err
	}
	return pyre.Strip(p) + conn, nil
}

// XcopaDocToChoice is xcopa_doc_to_choice.
func XcopaDocToChoice(doc task.Doc) (any, error) {
	out := make([]string, 2)
	for i, k := range []string{"choice1", "choice2"} {
		s, err := pyfn.Str(doc, k)
		if err != nil {
			return nil, err
		}
		if out[i], err = pyfn.LowercaseFirstLetter(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PawsProcessDocs is paws_process_docs (no detokenization).
func PawsProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return ibero.Paraphrases(docs, "sentence1", "sentence2", false)
}

func init() {
	const f = "basque_bench/utils.py"
	task.RegisterDocFunc(task.Helper{File: f, Function: "xcopa_doc_to_text",
		SHA256: "6d85cbfd9a80feed83d38acc7d2caf66a3687c4cd7456aca2d45a6b8a2b3a0de"}, XcopaDocToText)
	task.RegisterDocFunc(task.Helper{File: f, Function: "xcopa_doc_to_choice",
		SHA256: "e4fec5c7f9a0f5b238a80bac05424968b4aae340b91ddc2f8ebe5bc9f43b293b"}, XcopaDocToChoice)
	task.RegisterProcessDocs(task.Helper{File: f, Function: "paws_process_docs",
		SHA256: "9aebacc64bd9ea5e6d29c64263f587363ce7785e1dfcfac5a708e30d40978029"}, PawsProcessDocs)
}
