// Package rouge ports what lm-eval's helpers compute with Google's
// rouge_score through Hugging Face evaluate's "rouge" metric
// (evaluate.load("rouge").compute(predictions, references)["rouge1"]):
// ROUGE-N with rouge_score's default tokenizer (lower-cased, runs of
// anything but a-z and 0-9 as separators, so other letters are dropped)
// and no stemming, aggregated by rouge_score's BootstrapAggregator — the
// median (np.percentile 50) of 1000 means of resamples drawn with numpy's
// global np.random.choice. numpy's generator is taken in the state
// lm-eval's np.random.seed leaves it (python/nprand), which is exact for
// the first aggregation of a run that draws from it; a later one in the
// same lm-eval run sees the state the earlier draws left.
package rouge

import (
	"regexp"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyre"
)

// Score is rouge_score's Score.
type Score struct{ Precision, Recall, FMeasure float64 }

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

// Tokenize is rouge_score.tokenize.tokenize(text, stemmer=None).
func Tokenize(text string) []string {
	text = nonAlnum.ReplaceAllString(pyre.Lower(text), " ")
	var out []string
	for _, t := range strings.FieldsFunc(text, pyre.IsSpace) {
		if t != "" && !nonAlnum.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

func ngrams(tokens []string, n int) map[string]int {
	m := map[string]int{}
	for i := 0; i+n <= len(tokens); i++ {
		m[strings.Join(tokens[i:i+n], "\x00")]++
	}
	return m
}

// FMeasure is scoring.fmeasure.
func FMeasure(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

// N is rouge_score's ROUGE-N of prediction against target (tokens).
func N(target, prediction []string, n int) Score {
	t, p := ngrams(target, n), ngrams(prediction, n)
	inter, tn, pn := 0, 0, 0
	for g, c := range t {
		inter += min(c, p[g])
		tn += c
	}
	for _, c := range p {
		pn += c
	}
	prec := float64(inter) / float64(max(pn, 1))
	rec := float64(inter) / float64(max(tn, 1))
	return Score{prec, rec, FMeasure(prec, rec)}
}

// BootstrapMid is BootstrapAggregator().aggregate()[type].mid for one
// rouge type's per-document scores: for each of 1000 resamples (n indices
// from r.Choice), the column means (summed in order, numpy's mean over
// axis 0); then each column's np.percentile 50, linear interpolation
// between the 500th and 501st of the 1000 means.
func BootstrapMid(scores []Score, r *nprand.RandomState) Score {
	const samples = 1000
	n := len(scores)
	var cols [3][]float64
	for i := range cols {
		cols[i] = make([]float64, samples)
	}
	for s := range samples {
		var sum [3]float64
		for _, j := range r.Choice(n, n) {
			sum[0] += scores[j].Precision
			sum[1] += scores[j].Recall
			sum[2] += scores[j].FMeasure
		}
		for c := range cols {
			cols[c][s] = sum[c] / float64(n)
		}
	}
	var mid [3]float64
	for c, v := range cols {
		sort.Float64s(v)
		a, b := v[samples/2-1], v[samples/2]
		// numpy's _lerp(a, b, 0.5) for t >= 0.5: b - (b-a)*(1-t).
		mid[c] = b - (b-a)*0.5
	}
	return Score{mid[0], mid[1], mid[2]}
}

// EvaluateRouge1 is evaluate.load("rouge").compute(predictions=preds,
// references=refs)["rouge1"]: the bootstrap mid F-measure of ROUGE-1,
// rouge1 being the first type the aggregator resamples.
func EvaluateRouge1(refs, preds []string, r *nprand.RandomState) float64 {
	if len(refs) == 0 {
		return 0
	}
	scores := make([]Score, len(refs))
	for i := range refs {
		scores[i] = N(Tokenize(refs[i]), Tokenize(preds[i]), 1)
	}
	return BootstrapMid(scores, r).FMeasure
}
