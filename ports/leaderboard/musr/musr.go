// Package musr ports lm_eval/tasks/leaderboard/musr/utils.py: the
// choices, stored as a Python list literal, and the prompt.
package musr

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToChoice is doc_to_choice: ast.literal_eval(doc["choices"]).
func DocToChoice(doc task.Doc) ([]string, error) {
	s, ok := doc["choices"].(string)
	if !ok {
		return nil, fmt.Errorf("musr doc_to_choice: choices is %T, want a Python list literal", doc["choices"])
	}
	v, err := pyval.LiteralEval(s)
	if err != nil {
		return nil, fmt.Errorf("musr doc_to_choice: %w", err)
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("musr doc_to_choice: choices is a %T literal, want a list", v)
	}
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = pyval.Str(e)
	}
	return out, nil
}

// DocToText is doc_to_text: the narrative, the question, the numbered
// choices ("1 - ..."), then "Answer:".
func DocToText(doc task.Doc) (string, error) {
	choices, err := DocToChoice(doc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, c := range choices {
		b.WriteString(strconv.Itoa(i+1) + " - " + c + "\n")
	}
	return pyval.Str(doc["narrative"]) + "\n\n" + pyval.Str(doc["question"]) + "\n\n" + b.String() + "\nAnswer:", nil
}
