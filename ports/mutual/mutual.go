// Package mutual ports lm_eval/tasks/mutual/utils.py: process_docs
// (detokenised article and options) and process_results (r@1, r@2, mrr).
package mutual

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/npmath"
	"github.com/lmeval/lmeval/python/pyval"
)

func detokenize(s string) string {
	for _, r := range [][2]string{{" '", "'"}, {" \n", "\n"}, {"\n ", "\n"}, {" n't", "n't"}, {"`` ", "\""}, {"''", "\""},
		{" :", ":"}, {" ;", ";"}, {" !", "!"}, {" ?", "?"}, {" ,", ","}, {" .", "."}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}

// ProcessDocs is process_docs.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		a, ok := d["article"].(string)
		opts, ok2 := d["options"].([]any)
		if !ok || !ok2 {
			return nil, fmt.Errorf("mutual process_docs: document %d: want text article and a list of options", i)
		}
		no := make([]any, len(opts))
		for j, o := range opts {
			s, ok := o.(string)
			if !ok {
				return nil, fmt.Errorf("mutual process_docs: document %d: option %d is %T", i, j, o)
			}
			no[j] = detokenize(s)
		}
		nd := make(task.Doc, len(d))
		for k, v := range d {
			nd[k] = v
		}
		nd["article"], nd["options"] = detokenize(a), no
		out[i] = nd
	}
	return out, nil
}

// ProcessResults is process_results. As in utils.py, np.argmax runs over
// the (log-likelihood, is_greedy) pairs flattened, and the ranks sort the
// pairs.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	type pair struct {
		ll     float64
		greedy bool
	}
	ps := make([]pair, len(results))
	flat := make([]float64, 0, 2*len(results))
	for i, r := range results {
		l, ok := r.(model.LoglikelihoodResult)
		if !ok {
			return nil, fmt.Errorf("mutual process_results: result %d is %T, want a log-likelihood", i, r)
		}
		ps[i] = pair{l.LogProb, l.IsGreedy}
		g := 0.0
		if l.IsGreedy {
			g = 1
		}
		flat = append(flat, l.LogProb, g)
	}
	gold := -1
	for i, l := range []string{"A", "B", "C", "D"} {
		if pyval.Equal(doc["answers"], l) {
			gold = i
			break
		}
	}
	if gold < 0 {
		return nil, fmt.Errorf("mutual process_results: %s is not in list", pyval.Repr(doc["answers"]))
	}
	if gold >= len(ps) {
		return nil, fmt.Errorf("mutual process_results: list index out of range")
	}
	best := 0
	for i, x := range flat {
		if x != x {
			best = i
			break
		}
		if x > flat[best] {
			best = i
		}
	}
	r1 := best == gold
	less := func(a, b pair) bool { // tuple order
		if a.ll != b.ll {
			return a.ll < b.ll
		}
		return !a.greedy && b.greedy
	}
	ranks := append([]pair(nil), ps...)
	sort.SliceStable(ranks, func(i, j int) bool { return less(ranks[j], ranks[i]) })
	rank := 0
	for i, p := range ranks {
		if p == ps[gold] {
			rank = i
			break
		}
	}
	// r@1 is a numpy bool (np.argmax(...) == gold), and so is r@2 (a bool
	// plus a numpy bool is their logical or)
	return map[string]any{"r@1": npmath.Bool(r1), "r@2": npmath.Bool(rank == 1 || r1), "mrr": 1.0 / float64(rank+1)}, nil
}
