package tasks

import (
	"math"
	"regexp"
	"strings"

	"lmeval/harness/pyre"
)

// truthfulqa_gen scores a generated answer against every true and false
// reference with sentence BLEU (sacrebleu) and ROUGE (Google's
// rouge_score), as truthfulqa/utils.py's bleu and rouge helpers call them.

// sacrebleu's "intl" tokenizer (TokenizerV14International, sacrebleu 2.x).
var intlRules = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(\P{N})(\p{P})`), "${1} ${2} "}, // punctuation after a non-digit
	{regexp.MustCompile(`(\p{P})(\P{N})`), " ${1} ${2}"}, // punctuation before a non-digit
	{regexp.MustCompile(`(\p{S})`), " ${1} "},            // symbols
}

// tokenizeIntl is sacrebleu's tokenize="intl".
func tokenizeIntl(line string) string {
	for _, r := range intlRules {
		line = r.re.ReplaceAllString(line, r.repl)
	}
	return strings.Join(strings.FieldsFunc(line, pyre.IsSpace), " ")
}

// sentenceBLEU is truthfulqa's bleu([[ref]], [pred]):
// sacrebleu.corpus_bleu([pred], [[ref]], smooth_method="exp",
// tokenize="intl", lowercase=False, use_effective_order=False).score.
func sentenceBLEU(ref, pred string) float64 {
	const order = 4
	hyp := strings.FieldsFunc(tokenizeIntl(strings.TrimRightFunc(pred, pyre.IsSpace)), pyre.IsSpace)
	rf := strings.FieldsFunc(tokenizeIntl(strings.TrimRightFunc(ref, pyre.IsSpace)), pyre.IsSpace)
	refCounts := ngramCounts(rf, order)
	var correct, total [order]float64
	for g, c := range ngramCounts(hyp, order) {
		n := strings.Count(g, "\x00")
		total[n] += float64(c)
		correct[n] += float64(min(c, refCounts[g]))
	}
	sysLen, refLen := float64(len(hyp)), float64(len(rf))
	bp := 1.0
	if sysLen < refLen {
		bp = 0
		if sysLen > 0 {
			bp = math.Exp(1 - refLen/sysLen)
		}
	}
	if correct == [order]float64{} {
		return 0 // sacrebleu's early stop when nothing matches
	}
	var precisions [order]float64
	smooth := 1.0
	for n := 0; n < order; n++ {
		if total[n] == 0 {
			break
		}
		if correct[n] == 0 {
			smooth *= 2
			precisions[n] = 100 / (smooth * total[n])
		} else {
			precisions[n] = 100 * correct[n] / total[n]
		}
	}
	var logSum float64
	for _, p := range precisions {
		if p == 0 {
			logSum += -9999999999 // sacrebleu's my_log(0)
		} else {
			logSum += math.Log(p)
		}
	}
	return bp * math.Exp(logSum/order)
}

// ngramCounts counts the 1..order-grams of tokens, joined by NUL.
func ngramCounts(tokens []string, order int) map[string]int {
	m := map[string]int{}
	for n := 1; n <= order; n++ {
		for i := 0; i+n <= len(tokens); i++ {
			m[strings.Join(tokens[i:i+n], "\x00")]++
		}
	}
	return m
}

var (
	rougeNonAlnum = regexp.MustCompile(`[^a-z0-9]+`)
	rougeValid    = regexp.MustCompile(`^[a-z0-9]+$`)
)

// rougeTokenize is rouge_score's default tokenizer without stemming:
// lower-case, every run of characters other than a-z and 0-9 a space.
func rougeTokenize(text string) []string {
	text = rougeNonAlnum.ReplaceAllString(pyLower(text), " ")
	var out []string
	for _, t := range strings.FieldsFunc(text, pyre.IsSpace) {
		if rougeValid.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// rougeScores is truthfulqa's rouge([ref], [pred]): the F-measures (x100)
// of rouge1, rouge2 and rougeLsum from rouge_score's RougeScorer, after
// " . " became ".\n" in both texts. (The bootstrap aggregate of a single
// score is that score.)
func rougeScores(ref, pred string) (r1, r2, rLsum float64) {
	ref = strings.ReplaceAll(ref, " . ", ".\n")
	pred = strings.ReplaceAll(pred, " . ", ".\n")
	rt, pt := rougeTokenize(ref), rougeTokenize(pred)
	r1 = 100 * rougeN(rt, pt, 1)
	r2 = 100 * rougeN(rt, pt, 2)
	rLsum = 100 * rougeLsum(rougeSents(ref), rougeSents(pred))
	return r1, r2, rLsum
}

func rougeN(target, pred []string, n int) float64 {
	tc, pc := nGrams(target, n), nGrams(pred, n)
	inter, tn, pn := 0, 0, 0
	for g, c := range tc {
		inter += min(c, pc[g])
		tn += c
	}
	for _, c := range pc {
		pn += c
	}
	return fmeasure(float64(inter)/float64(max(pn, 1)), float64(inter)/float64(max(tn, 1)))
}

func nGrams(tokens []string, n int) map[string]int {
	m := map[string]int{}
	for i := 0; i+n <= len(tokens); i++ {
		m[strings.Join(tokens[i:i+n], "\x00")]++
	}
	return m
}

func fmeasure(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

// rougeSents splits a summary into sentences at newlines (rouge_score's
// rougeLsum without split_summaries), tokenised, empty lines dropped.
func rougeSents(text string) [][]string {
	var out [][]string
	for _, s := range strings.Split(text, "\n") {
		if s != "" {
			out = append(out, rougeTokenize(s))
		}
	}
	return out
}

// rougeLsum is rouge_score's _summary_level_lcs: the union LCS of each
// reference sentence with the candidate sentences, each token counted at
// most as often as it occurs on both sides.
func rougeLsum(ref, can [][]string) float64 {
	if len(ref) == 0 || len(can) == 0 {
		return 0
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
		return 0
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
	return fmeasure(float64(hits)/float64(n), float64(hits)/float64(m))
}

// lcsIndices is rouge_score's lcs_ind: indices into ref of one longest
// common subsequence, found by its table and backtracking rule.
func lcsIndices(ref, can []string) []int {
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
	var idx []int
	i, j := rows, cols
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

// SentenceBLEU is sentenceBLEU for the ports of other helpers with the
// same bleu([[ref]], [pred]) (truthfulqa-multi's process_results_gen).
func SentenceBLEU(ref, pred string) float64 { return sentenceBLEU(ref, pred) }
