// Package logiqa ports lm_eval/tasks/logiqa/utils_logiqa.py: the prompt
// (passage, question, lettered options) and the gold letter's index.
package logiqa

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func text(doc task.Doc, key string) (string, error) {
	s, ok := doc[key].(string)
	if !ok {
		return "", fmt.Errorf("logiqa: %s is %T, want text", key, doc[key])
	}
	return s, nil
}

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) {
	ctx, err := text(doc, "context")
	if err != nil {
		return "", err
	}
	q, err := text(doc, "question")
	if err != nil {
		return "", err
	}
	opts, ok := doc["options"].([]any)
	if !ok {
		return "", fmt.Errorf("logiqa: options is %T, want a list", doc["options"])
	}
	var b strings.Builder
	b.WriteString("Passage: " + ctx + "\nQuestion: " + q + "\nChoices:\n")
	for i, o := range opts {
		if i >= 4 { // zip with the four letters
			break
		}
		b.WriteString(string(rune('A'+i)) + ". " + pyval.Str(o) + "\n")
	}
	b.WriteString("Answer:")
	return b.String(), nil
}

// DocToTarget is doc_to_target: ["a", "b", "c", "d"].index(label.strip()).
func DocToTarget(doc task.Doc) (int, error) {
	l, err := text(doc, "label")
	if err != nil {
		return 0, err
	}
	i := strings.Index("abcd", pyre.Strip(l))
	if len(pyre.Strip(l)) != 1 || i < 0 {
		return 0, fmt.Errorf("logiqa: label %q is not in ['a', 'b', 'c', 'd']", l)
	}
	return i, nil
}
