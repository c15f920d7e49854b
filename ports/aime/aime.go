// Package aime ports lm_eval/tasks/aime/utils.py's process_results: the
// answer between the first and last "$" of the output, or inside its last
// \boxed{}, against the document's answer with Hendrycks et al.'s
// normalisation (aime's is_equiv and strip_string are hendrycks_math's;
// its boxed helpers minerva_math's).
package aime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/hendrycks_math"
	minerva "github.com/lmeval/lmeval/ports/minerva_math"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// ProcessResults is process_results.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("aime process_results: no results")
	}
	resp, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("aime process_results: result is %T, want the generated string", results[0])
	}
	answer := resp
	if first, last := strings.Index(resp, "$"), strings.LastIndex(resp, "$"); first >= 0 && last > first {
		answer = resp[first+1 : last]
	}
	if b, ok := minerva.LastBoxedOnlyString(resp); ok {
		if c, err := minerva.RemoveBoxed(b); err == nil {
			answer = c
		}
	}
	// the key that is "answer" in any case (Python takes the first in the
	// document's column order; a document with two such columns, which
	// aime's datasets do not have, gets the first in sorted order here)
	key, found := "", false
	for _, k := range pyval.SortedKeys(doc) {
		if pyre.Lower(k) == "answer" {
			key, found = k, true
			break
		}
	}
	if !found {
		return nil, errors.New("aime process_results: the document has no answer column (StopIteration)")
	}
	em := 0
	if hendrycks_math.IsEquiv(answer, pyval.Str(doc[key])) {
		em = 1
	}
	return map[string]any{"exact_match": em}, nil
}
