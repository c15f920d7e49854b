// Package mmlu_pro ports lm_eval/tasks/leaderboard/mmlu_pro/utils.py: the
// question with lettered options, and the letters as choices.
package mmlu_pro

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

func options(doc task.Doc) ([]any, error) {
	l, ok := doc["options"].([]any)
	if !ok {
		return nil, fmt.Errorf("mmlu_pro: options is %T, want a list", doc["options"])
	}
	if len(l) > len(upper) {
		return nil, fmt.Errorf("mmlu_pro: %d options, more than string.ascii_uppercase has letters", len(l))
	}
	return l, nil
}

// DocToText is doc_to_text: "question\nA. option\n...Answer:".
func DocToText(doc task.Doc) (string, error) {
	opts, err := options(doc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(pyval.Str(doc["question"]) + "\n")
	for i, o := range opts {
		b.WriteString(upper[i:i+1] + ". " + pyval.Str(o) + "\n")
	}
	b.WriteString("Answer:")
	return b.String(), nil
}

// DocToChoice is doc_to_choice: a letter per option.
func DocToChoice(doc task.Doc) ([]string, error) {
	opts, err := options(doc)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(opts))
	for i := range opts {
		out[i] = upper[i : i+1]
	}
	return out, nil
}
