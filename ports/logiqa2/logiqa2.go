// Package logiqa2 ports lm_eval/tasks/logiqa2/utils_logiqa2.py's
// doc_to_text: the passage ("text"), the question and lettered options.
package logiqa2

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) {
	text, ok1 := doc["text"].(string)
	q, ok2 := doc["question"].(string)
	opts, ok3 := doc["options"].([]any)
	if !ok1 || !ok2 || !ok3 {
		return "", fmt.Errorf("logiqa2: want text and question (text) and options (a list)")
	}
	var b strings.Builder
	b.WriteString("Passage: " + text + "\nQuestion: " + q + "\n")
	for i, o := range opts {
		if i >= 4 {
			break
		}
		b.WriteString(string(rune('A'+i)) + ". " + pyval.Str(o) + "\n")
	}
	b.WriteString("Answer:")
	return b.String(), nil
}
