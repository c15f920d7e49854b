// Package meqsum ports lm_eval/tasks/meqsum/utils.py: the consumer health
// question after its "MESSAGE" header, and the summary. Its
// process_results needs BLEURT and BERTScore: unavailable.
package meqsum

import (
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

// DocToText is doc_to_text: the text from the 9th character after the
// first "MESSAGE" (or all of it).
func DocToText(doc task.Doc) (any, error) {
	text, err := pydoc.String(doc, "CHQ")
	if err != nil {
		return nil, err
	}
	idx := strings.Index(text, "MESSAGE")
	if idx < 0 {
		return text, nil
	}
	// text.find counts code points.
	rs := []rune(text)
	return pydoc.Slice(rs, len([]rune(text[:idx]))+9, 0, true), nil
}

// DocToTarget is doc_to_target.
var DocToTarget = medical.Field("Summary")

func init() {
	task.RegisterDocFunc(task.Helper{File: "meqsum/utils.py", Function: "doc_to_text", SHA256: "bece7dfd9f68b9d205b560e9222f1d7195562013cc0bda2b51d9c9b1f4dc16f9"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "meqsum/utils.py", Function: "doc_to_target", SHA256: "449acfb97e1b4b6ebdb450db5b818b044770122998b51b34835364fe5f640e7c"}, DocToTarget)
	task.RegisterUnavailable(task.Helper{File: "meqsum/utils.py", Function: "process_results_gen", SHA256: "b257308df9416dc646bcadadb3174b1283c09ad80aae04c47c041ad43e4af324"}, medical.Unavailable(medical.BLEURTBERTScore, ""))
}
