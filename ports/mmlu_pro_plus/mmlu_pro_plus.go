// Package mmlu_pro_plus ports lm_eval/tasks/mmlu-pro-plus/utils.py's
// doc_to_text and fewshot_to_text (format_cot_example without the answer,
// through functools.partial): mmlu_pro's prompt with sixteen option
// letters, A-P. Its fewshot_to_target and process_<subject> filters are
// the same source as mmlu_pro's, whose port serves them.
package mmlu_pro_plus

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/mmlu_pro"
)

// Letters is utils.py's choices.
var Letters = []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P"}

// DocToText is doc_to_text (and fewshot_to_text):
// format_cot_example(example, including_answer=False).
func DocToText(doc task.Doc) (any, error) {
	return mmlu_pro.FormatCOTExampleLetters(doc, false, Letters, false)
}
