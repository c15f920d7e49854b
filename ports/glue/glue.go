// Package glue ports lm_eval/tasks/glue/mnli/utils.py's doc_to_text.
package glue

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// MNLIDocToText is mnli/utils.py's doc_to_text: the premise, and the
// hypothesis stripped and ended with a period.
func MNLIDocToText(doc task.Doc) (any, error) {
	h, ok := doc["hypothesis"].(string)
	if !ok {
		return nil, fmt.Errorf("mnli doc_to_text: hypothesis is %T, want text", doc["hypothesis"])
	}
	h = pyre.Strip(h)
	if !strings.HasSuffix(h, ".") {
		h += "."
	}
	return pyval.Str(doc["premise"]) + "\nQuestion: " + h + " True, False or Neither?\nAnswer:", nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "glue/mnli/utils.py", Function: "doc_to_text",
		SHA256: "6c48c3d9f85f25417b42fb2ed3463e208028b71c0bb09d7f787b2d51e7efc71c"}, MNLIDocToText)
}
