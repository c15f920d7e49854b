package metrics

import (
	"regexp"
	"strings"

	"lmeval/harness/pyre"
)

// ROUGE as Google's rouge_score package (0.1.2) computes it without
// stemming: RougeScorer's default tokenizer, rougeN's clipped n-gram
// overlap, rougeL's longest common subsequence and rougeLsum's
// summary-level union LCS. Ports that score with rouge_score (truthfulqa's
// helpers, the SCROLLS metric) share these.

// RougeScore is rouge_score's Score tuple.
type RougeScore struct{ Precision, Recall, FMeasure float64 }

var (
	rougeNonAlnum = regexp.MustCompile(`[^a-z0-9]+`)
	rougeValid    = regexp.MustCompile(`^[a-z0-9]+$`)
)

// RougeTokenize is rouge_score's tokenize.tokenize without a stemmer:
// Python's str.lower, every run of characters other than a-z and 0-9 a
// space, split on whitespace, invalid (empty) tokens dropped.
func RougeTokenize(text string) []string {
	text = rougeNonAlnum.ReplaceAllString(pyre.Lower(text), " ")
	var out []string
	for _, t := range strings.FieldsFunc(text, pyre.IsSpace) {
		if rougeValid.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// rougeFMeasure is rouge_score's scoring.fmeasure.
func rougeFMeasure(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

// RougeN is rouge_score's _score_ngrams of the target's and prediction's
// n-grams.
func RougeN(target, pred []string, n int) RougeScore {
	tc, pc := rougeNGrams(target, n), rougeNGrams(pred, n)
	inter, tn, pn := 0, 0, 0
	for g, c := range tc {
		inter += min(c, pc[g])
		tn += c
	}
	for _, c := range pc {
		pn += c
	}
	p := float64(inter) / float64(max(pn, 1))
	r := float64(inter) / float64(max(tn, 1))
	return RougeScore{p, r, rougeFMeasure(p, r)}
}

func rougeNGrams(tokens []string, n int) map[string]int {
	m := map[string]int{}
	for i := 0; i+n <= len(tokens); i++ {
		m[strings.Join(tokens[i:i+n], "\x00")]++
	}
	return m
}

// RougeL is rouge_score's _score_lcs: the longest common subsequence of
// the token lists (all zero when either is empty).
func RougeL(target, pred []string) RougeScore {
	if len(target) == 0 || len(pred) == 0 {
		return RougeScore{}
	}
	t := lcsTable(target, pred)
	lcs := float64(t[len(target)][len(pred)])
	p := lcs / float64(len(pred))
	r := lcs / float64(len(target))
	return RougeScore{p, r, rougeFMeasure(p, r)}
}

func lcsTable(ref, can []string) [][]int {
	rows, cols := len(ref), len(can)
	t := make([][]int, rows+1)
	for i := range t {
		t[i] = make([]int, cols+1)
	}
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			if ref[i-1] == can[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	return t
}

// RougeSentences splits a summary into sentences at newlines, as
// rougeLsum does without split_summaries: each tokenised, empty lines
// dropped.
func RougeSentences(text string) [][]string {
	var out [][]string
	for _, s := range strings.Split(text, "\n") {
		if s != "" {
			out = append(out, RougeTokenize(s))
		}
	}
	return out
}

// RougeLsum is rouge_score's _summary_level_lcs: the union LCS of each
// reference sentence with the candidate sentences, each token counted at
// most as often as it occurs on both sides.
func RougeLsum(ref, can [][]string) RougeScore {
	if len(ref) == 0 || len(can) == 0 {
		return RougeScore{}
	}
	m, n := 0, 0
	cntR, cntC := map[string]int{}, map[string]int{}
	for _, s := range ref {
		m += len(s)
		for _, t := range s {
			cntR[t]++
		}
	}
	for _, s := range can {
		n += len(s)
		for _, t := range s {
			cntC[t]++
		}
	}
	if m == 0 || n == 0 {
		return RougeScore{}
	}
	hits := 0
	for _, r := range ref {
		union := map[int]bool{}
		for _, c := range can {
			for _, i := range lcsIndices(r, c) {
				union[i] = true
			}
		}
		for i := range r { // sorted(set().union(...)): ascending indices
			if !union[i] {
				continue
			}
			t := r[i]
			if cntC[t] > 0 && cntR[t] > 0 {
				hits++
				cntC[t]--
				cntR[t]--
			}
		}
	}
	p, rc := float64(hits)/float64(n), float64(hits)/float64(m)
	return RougeScore{p, rc, rougeFMeasure(p, rc)}
}

// lcsIndices is rouge_score's _lcs_ind: indices into ref of one longest
// common subsequence, found by its table and backtracking rule.
func lcsIndices(ref, can []string) []int {
	t := lcsTable(ref, can)
	var idx []int
	i, j := len(ref), len(can)
	for i > 0 && j > 0 {
		switch {
		case ref[i-1] == can[j-1]:
			idx = append(idx, i-1)
			i--
			j--
		case t[i][j-1] > t[i-1][j]:
			j--
		default:
			i--
		}
	}
	return idx
}
