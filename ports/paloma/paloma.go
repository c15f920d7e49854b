// Package paloma ports lm_eval/tasks/paloma/paloma_utils.py: the text to
// score, str(doc["text"]).
package paloma

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToTarget is doc_to_target.
func DocToTarget(doc task.Doc) (any, error) {
	v, err := pydoc.Field(doc, "text")
	if err != nil {
		return nil, err
	}
	return pyval.Str(v), nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "paloma/paloma_utils.py", Function: "doc_to_target",
		SHA256: "c2799502f9a8fa08ea8cdd3e580b106b1a4a01fd2f6cb834f0e323fddfacefa1"}, DocToTarget)
}
