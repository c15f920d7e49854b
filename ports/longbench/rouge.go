package longbench

import (
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// recursionBase is the number of Python frames on the stack when the
// rouge package's _recon_lcs runs inside lm-eval's evaluator (measured
// under lm-eval's console script, testdata/gen_vectors.py), and recursionLimit
// Python's default sys.getrecursionlimit(): _recon recurses once per step
// of the LCS path, and rouge_score's bare except turns the RecursionError
// of a very long sentence pair into a score of 0.
const (
	recursionBase  = 18
	recursionLimit = 1000
)

// rougeSentences is Rouge._get_avg_scores's split of a text: the
// non-empty pieces between "." with their whitespace runs made single
// spaces.
func rougeSentences(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ".") {
		if p != "" {
			out = append(out, strings.Join(strings.FieldsFunc(p, pyre.IsSpace), " "))
		}
	}
	return out
}

func splitWords(sents []string) []string {
	var out []string
	for _, s := range sents {
		out = append(out, strings.Split(s, " ")...)
	}
	return out
}

// reconLCS is _recon_lcs(x, y)'s words, and the number of nested _recon
// calls it makes.
func reconLCS(x, y []string) ([]string, int) {
	n, m := len(x), len(y)
	w := m + 1
	table := make([]int32, (n+1)*w)
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			if x[i-1] == y[j-1] {
				table[i*w+j] = table[(i-1)*w+j-1] + 1
			} else {
				table[i*w+j] = max(table[(i-1)*w+j], table[i*w+j-1])
			}
		}
	}
	var out []string
	i, j, calls := n, m, 1
	for i > 0 && j > 0 {
		calls++
		switch {
		case x[i-1] == y[j-1]:
			out = append(out, x[i-1])
			i, j = i-1, j-1
		case table[(i-1)*w+j] > table[i*w+j-1]:
			i--
		default:
			j--
		}
	}
	return out, calls
}

// RougeL is the rouge package's (pltrdy/rouge 1.0.1)
// Rouge().get_scores([hyp], [ref], avg=True)["rouge-l"]["f"] (summary
// level, exclusive), with rouge_score's failures: ok is false where the
// package raises (an empty hypothesis or reference, a RecursionError).
func RougeL(hyp, ref string) (f float64, ok bool) {
	hs, rs := rougeSentences(hyp), rougeSentences(ref)
	if len(hs) == 0 || len(rs) == 0 {
		return 0, false // ValueError: Hypothesis/Reference is empty
	}
	distinct := func(ws []string) int {
		set := map[string]bool{}
		for _, w := range ws {
			set[w] = true
		}
		return len(set)
	}
	m, n := distinct(splitWords(rs)), distinct(splitWords(hs))
	union := map[string]bool{}
	for _, r := range rs {
		rw := strings.Split(r, " ")
		for _, h := range hs {
			hw := strings.Split(h, " ")
			if recursionBase+min(len(rw), len(hw))+1 > recursionLimit {
				return 0, false // the path is at least that long: RecursionError
			}
			lcs, calls := reconLCS(rw, hw)
			if recursionBase+calls > recursionLimit {
				return 0, false // RecursionError
			}
			for _, w := range lcs {
				union[w] = true
			}
		}
	}
	llcs := float64(len(union))
	r := llcs / float64(m)
	p := llcs / float64(n)
	return 2.0 * (float64(p*r) / (p + r + 1e-8)), true
}
