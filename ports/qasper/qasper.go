// Package qasper ports lm_eval/tasks/qasper: utils.py's process_docs
// partials (one document per question and answer of the wanted type) and
// metrics.py's f1_abstractive (SQuAD v1.1 token F1).
package qasper

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pystr"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/python/pyval"
)

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case int:
		return x != 0
	case float64:
		return x != 0
	}
	return true
}

// categorise is _categorise_answer; ok is false where it returns None
// (the caller's unpacking then raises).
func categorise(b map[string]any) (answer any, typ string, ok bool) {
	switch {
	case truthy(b["unanswerable"]):
		return "unanswerable", "unanswerable", true
	case truthy(b["yes_no"]):
		return "yes", "bool", true
	case truthy(b["free_form_answer"]):
		return b["free_form_answer"], "free form answer", true
	case truthy(b["extractive_spans"]):
		return b["extractive_spans"], "extractive_spans", true
	case b["yes_no"] == false:
		return "no", "bool", true
	}
	return nil, "", false
}

// ProcessDocs is process_docs(dataset, set_answer_type).
func ProcessDocs(docs []task.Doc, want string) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		qas, ok := d["qas"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("qasper process_docs: document %d: qas is %T, want a dict", i, d["qas"])
		}
		qs, _ := qas["question"].([]any)
		as, _ := qas["answers"].([]any)
		for j := 0; j < min(len(qs), len(as)); j++ {
			al, ok := as[j].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("qasper process_docs: document %d: answers[%d] is %T", i, j, as[j])
			}
			blobs, _ := al["answer"].([]any)
			for _, b := range blobs {
				bm, _ := b.(map[string]any)
				ans, typ, ok := categorise(bm)
				if !ok {
					return nil, errors.New("qasper process_docs: cannot unpack non-iterable NoneType object (an answer of no kind)")
				}
				if typ != want {
					continue
				}
				if l, isList := ans.([]any); isList {
					parts := make([]string, len(l))
					for k, e := range l {
						s, ok := e.(string)
						if !ok {
							return nil, fmt.Errorf("qasper process_docs: extractive span is %T (str.join needs text)", e)
						}
						parts[k] = s
					}
					ans = strings.Join(parts, ", ")
				}
				out = append(out, task.Doc{"title": d["title"], "abstract": d["abstract"], "question": qs[j], "answer": ans, "answer_type": typ})
			}
		}
	}
	return out, nil
}

// F1Abstractive is metrics.py's f1_abstractive.
func F1Abstractive(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	if len(refs) == 0 || len(preds) == 0 {
		return nil, errors.New("f1_abstractive: list index out of range")
	}
	p := pystr.Fields(squad.NormalizeAnswer(pyval.Str(preds[0])))
	r := pystr.Fields(squad.NormalizeAnswer(pyval.Str(refs[0])))
	same := squad.Common(p, r)
	if same == 0 {
		return 0, nil
	}
	precision := float64(same) / float64(len(p))
	recall := float64(same) / float64(len(r))
	return 2 * precision * recall / (precision + recall), nil
}

func init() {
	cols := []string{"title", "abstract", "question", "answer", "answer_type"}
	task.RegisterMapDocs(task.Helper{File: "qasper/utils.py", Function: "process_docs_bool",
		SHA256: "dcd530c892176d58c7c740962bd0fdbe383f9c3b9efc3fe4fed8dfb3857eee43"}, task.MapDocs{Fn: func(d []task.Doc) ([]task.Doc, error) { return ProcessDocs(d, "bool") }, Columns: cols})
	task.RegisterMapDocs(task.Helper{File: "qasper/utils.py", Function: "process_docs_freeform",
		SHA256: "1e5309eb7654b9e9130bcf856fe85271c470e9a0afab6e1450e4f447318145aa"}, task.MapDocs{Fn: func(d []task.Doc) ([]task.Doc, error) { return ProcessDocs(d, "free form answer") }, Columns: cols})
	task.RegisterMetric(task.Helper{File: "qasper/metrics.py", Function: "f1_abstractive",
		SHA256: "10d8089b30568139babdf593802208f3d9be1b571e30aed919d70827d3449ff6"}, F1Abstractive)
}
