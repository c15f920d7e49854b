// Package mathqa ports lm_eval/tasks/mathqa/utils.py's doc_to_choice: the
// five options parsed out of "a ) ... , b ) ... , e ) ...".
package mathqa

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
)

var option = pyre.MustCompile(`[abcd] \) .*?, |e \) .*?$`)

// DocToChoice is doc_to_choice: each match without its "x ) " lead and
// with trailing spaces and commas removed.
func DocToChoice(doc task.Doc) ([]string, error) {
	s, ok := doc["options"].(string)
	if !ok {
		return nil, fmt.Errorf("mathqa: options is %T, want text", doc["options"])
	}
	out := []string{}
	for _, m := range option.FindAllStrings(s) {
		r := []rune(m[0])
		c := ""
		if len(r) > 4 {
			c = string(r[4:])
		}
		out = append(out, strings.TrimRight(c, " ,"))
	}
	return out, nil
}
