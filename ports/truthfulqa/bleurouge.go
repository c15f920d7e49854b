package truthfulqa

import (
	"math"
	"regexp"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/python/pyre"
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

// SentenceBLEU is truthfulqa's bleu([[ref]], [pred]):
// sacrebleu.corpus_bleu([pred], [[ref]], smooth_method="exp",
// tokenize="intl", lowercase=False, use_effective_order=False).score.
func SentenceBLEU(ref, pred string) float64 {
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

// rougeScores is truthfulqa's rouge([ref], [pred]): the F-measures (x100)
// of rouge1, rouge2 and rougeLsum from rouge_score's RougeScorer, after
// " . " became ".\n" in both texts. (The bootstrap aggregate of a single
// score is that score.)
func rougeScores(ref, pred string) (r1, r2, rLsum float64) {
	ref = strings.ReplaceAll(ref, " . ", ".\n")
	pred = strings.ReplaceAll(pred, " . ", ".\n")
	rt, pt := metrics.RougeTokenize(ref), metrics.RougeTokenize(pred)
	r1 = 100 * metrics.RougeN(rt, pt, 1).FMeasure
	r2 = 100 * metrics.RougeN(rt, pt, 2).FMeasure
	rLsum = 100 * metrics.RougeLsum(ref, pred).FMeasure
	return r1, r2, rLsum
}
