// Package egymmlu ports lm_eval/tasks/egymmlu/utils.py's doc_to_text:
// darijammlu's with an Egyptian prompt and the egy_subject column (its
// doc_to_choice is darijammlu's, which ports/darijammlu registers).
package egymmlu

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/darijammlu"
)

// Prompt is egymmlu's PROMPT.
const Prompt = "ده سؤال متعدد الاختيار (مع إجابته) على {}\n\n{}\n{}\n الجواب:"

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) { return darijammlu.DocToText(doc, Prompt, "egy_subject") }

func init() {
	task.RegisterDocFunc(task.Helper{File: "egymmlu/utils.py", Function: "doc_to_text",
		SHA256: "6dbd5a566734585b0db3f04d6ee43f24d59fae2cf1d66a2c0faa526a235c2328"}, func(d task.Doc) (any, error) { return DocToText(d) })
}
