// Package openai_mmmlu ports lm_eval/tasks/openai-mmmlu/default/utils.py:
// process_<subject>, made at import time for every subject of
// subjects.json, keeps the documents whose Subject column, without a
// "_test.csv..." or "_test-..." tail, is the subject.
package openai_mmmlu

import (
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// NormalizeSubject is _normalize_subject_name (text only; other values are
// returned as they are).
func NormalizeSubject(name any) any {
	s, ok := name.(string)
	if !ok {
		return name
	}
	for _, marker := range []string{"_test.csv", "_test-"} {
		if i := strings.Index(s, marker); i >= 0 {
			return s[:i]
		}
	}
	return s
}

// FilterSubject is _filter_subject.
func FilterSubject(docs []task.Doc, subject string) []task.Doc {
	out := []task.Doc{}
	for _, d := range docs {
		if pyval.Equal(NormalizeSubject(d["Subject"]), subject) {
			out = append(out, d)
		}
	}
	return out
}
