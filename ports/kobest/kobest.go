// Package kobest ports lm_eval/tasks/kobest/utils.py: the prompts of
// COPA, SentiNeg and WiC, COPA's target and choices, and HellaSwag's
// documents (its macro_f1_score is lmeval/ports/f1score's).
package kobest

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func field(doc task.Doc, k string) (string, error) {
	v, err := pydoc.Field(doc, k)
	if err != nil {
		return "", err
	}
	return pyval.Str(v), nil
}

// CopaDocToText is copa_doc_to_text: the premise and the connector of the
// question (원인: " 왜냐하면", 결과: " 그래서") after a space.
func CopaDocToText(doc task.Doc) (any, error) {
	q, err := pyfn.Str(doc, "question")
	if err != nil {
		return nil, err
	}
	conn, ok := map[string]string{"원인": " 왜냐하면", "결과": " 그래서"}[pyre.Strip(q)]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(pyre.Strip(q)))
	}
	p, err := field(doc, "premise")
	if err != nil {
		return nil, err
	}
	return p + " " + conn, nil
}

// isZero is Python's doc["label"] == 0.
func isZero(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case int:
		return x == 0
	case float64:
		return x == 0
	case bool:
		return !x
	}
	return false
}

// CopaDocToTarget is copa_doc_to_target: the right alternative's text.
func CopaDocToTarget(doc task.Doc) (any, error) {
	l, err := pydoc.Field(doc, "label")
	if err != nil {
		return nil, err
	}
	if isZero(l) {
		return field(doc, "alternative_1")
	}
	return field(doc, "alternative_2")
}

// CopaDocToChoice is copa_doc_to_choice.
func CopaDocToChoice(doc task.Doc) (any, error) {
	a, err := field(doc, "alternative_1")
	if err != nil {
		return nil, err
	}
	b, err := field(doc, "alternative_2")
	if err != nil {
		return nil, err
	}
	return []string{a, b}, nil
}

// SentinegDocToText is sentineg_doc_to_text.
func SentinegDocToText(doc task.Doc) (any, error) {
	s, err := field(doc, "sentence")
	if err != nil {
		return nil, err
	}
	return "문장: " + s + " 긍부정:", nil
}

// WicDocToText is wic_doc_to_text.
func WicDocToText(doc task.Doc) (any, error) {
	var v [3]string
	for i, k := range []string{"context_1", "context_2", "word"} {
		var err error
		if v[i], err = field(doc, k); err != nil {
			return nil, err
		}
	}
	return "문장1: " + v[0] + " 문장2: " + v[1] + " 두 문장에서 " + v[2] + "가 같은 뜻으로 쓰였나?", nil
}

// HellaswagColumns are the keys hellaswag_process_doc's preprocessor returns.
var HellaswagColumns = []string{"query", "choices", "gold"}

// HellaswagProcessDoc is hellaswag_process_doc.
func HellaswagProcessDoc(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		c, err := field(d, "context")
		if err != nil {
			return err
		}
		choices := make([]any, 4)
		for i := range choices {
			if choices[i], err = pydoc.Field(d, fmt.Sprintf("ending_%d", i+1)); err != nil {
				return err
			}
		}
		l, err := pydoc.Field(d, "label")
		if err != nil {
			return err
		}
		g, err := pyval.Int(l)
		if err != nil {
			return err
		}
		d["query"], d["choices"], d["gold"] = "문장: "+c, choices, g
		return nil
	})
}

func init() {

	task.RegisterDocFunc(task.Helper{File: "kobest/utils.py", Function: "copa_doc_to_text", SHA256: "9eb1f949b44217ee3c74bcdd6edda0a9532d2d9178212f4657845f7b076647c8"}, CopaDocToText)
	task.RegisterDocFunc(task.Helper{File: "kobest/utils.py", Function: "copa_doc_to_target", SHA256: "f18b7a5a4d0700467a63e1527162c2f1e675f1046cdefa8ee4836ff04bbee5eb"}, CopaDocToTarget)
	task.RegisterDocFunc(task.Helper{File: "kobest/utils.py", Function: "copa_doc_to_choice", SHA256: "2c5ffb9f60bf040650c3a013e9303b6d7130265f3fe7aef5937bfe498b7f9cae"}, CopaDocToChoice)
	task.RegisterDocFunc(task.Helper{File: "kobest/utils.py", Function: "sentineg_doc_to_text", SHA256: "41fc89b07c195818397a3e74b7f91f02806df7f450c26c64d102369f8c3b822d"}, SentinegDocToText)
	task.RegisterDocFunc(task.Helper{File: "kobest/utils.py", Function: "wic_doc_to_text", SHA256: "e9498107961acfdafe19526909a9492ea7c24cea5bd8a8f1344e40af20b65d1a"}, WicDocToText)
	task.RegisterMapDocs(task.Helper{File: "kobest/utils.py", Function: "hellaswag_process_doc", SHA256: "347af973bdb9d57b2853ac1164e0dc728bab6fb807f48394b08339b2d5e7e705"}, task.MapDocs{Fn: HellaswagProcessDoc, Columns: HellaswagColumns})
}
