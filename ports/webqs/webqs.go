// Package webqs ports lm_eval/tasks/webqs/utils.py: every accepted answer
// is a choice, less those another starts (the prefix already matches).
package webqs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

// removePrefixes is _remove_prefixes(doc["answers"]). Like the Python, it
// sorts the document's list in place (lm-eval then logs it sorted).
func removePrefixes(doc task.Doc) ([]string, error) {
	v, err := pydoc.Field(doc, "answers")
	if err != nil {
		return nil, err
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("AttributeError: answers is %s, not list", pydoc.TypeName(v))
	}
	strs := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("TypeError: answers[%d] is %s: '<' not supported", i, pydoc.TypeName(e))
		}
		strs[i] = s
	}
	// Python compares str by code point, as Go compares UTF-8 bytes.
	sort.Strings(strs)
	for i, s := range strs {
		l[i] = s
	}
	if len(strs) == 0 {
		return nil, fmt.Errorf("IndexError: list index out of range (no answers)")
	}
	ret := []string{strs[0]}
	for _, a := range strs[1:] {
		if !strings.HasPrefix(a, ret[len(ret)-1]) {
			ret = append(ret, a)
		}
	}
	return ret, nil
}

// DocToChoice is doc_to_choice.
func DocToChoice(doc task.Doc) (any, error) {
	r, err := removePrefixes(doc)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// DocToTarget is doc_to_target: every choice is a gold answer.
func DocToTarget(doc task.Doc) (any, error) {
	r, err := removePrefixes(doc)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(r))
	for i := range r {
		out[i] = i
	}
	return out, nil
}

func init() {
	const file = "webqs/utils.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice",
		SHA256: "f59882dc58e7842c90e95b2a362308b2ecd8d7238454d342b8fafdbe91090638"}, DocToChoice)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "c7c20bf7766595d65467f5924e136199a551de4b5005818c86fca18256a5ea99"}, DocToTarget)
}
