package metrics

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyre"
)

// ROUGE as Google's rouge_score computes it (RougeScorer with the default
// tokenizer, no stemming), and Hugging Face evaluate's "rouge" metric,
// which aggregates the scores with rouge_score's BootstrapAggregator.

// RougeScore is rouge_score's Score.
type RougeScore struct{ Precision, Recall, FMeasure float64 }

var (
	rougeNonAlnum = regexp.MustCompile(`[^a-z0-9]+`)
	rougeValid    = regexp.MustCompile(`^[a-z0-9]+$`)
)

// RougeTokenize is rouge_score's default tokenizer without stemming:
// lower-case, every run of characters other than a-z and 0-9 a space,
// split, keep the a-z0-9 tokens (text in other scripts has none).
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

func rougeF(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

// RougeN is _score_ngrams over the n-grams of target and prediction.
func RougeN(target, pred []string, n int) RougeScore {
	grams := func(tokens []string) map[string]int {
		m := map[string]int{}
		for i := 0; i+n <= len(tokens); i++ {
			m[strings.Join(tokens[i:i+n], "\x00")]++
		}
		return m
	}
	tc, pc := grams(target), grams(pred)
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
	return RougeScore{p, r, rougeF(p, r)}
}

// lcsTable is _lcs_table.
func lcsTable(ref, can []string) [][]int {
	t := make([][]int, len(ref)+1)
	for i := range t {
		t[i] = make([]int, len(can)+1)
	}
	for i := 1; i <= len(ref); i++ {
		for j := 1; j <= len(can); j++ {
			if ref[i-1] == can[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	return t
}

// RougeL is _score_lcs: the longest common subsequence's share of the
// prediction (precision) and of the target (recall).
func RougeL(target, pred []string) RougeScore {
	if len(target) == 0 || len(pred) == 0 {
		return RougeScore{}
	}
	lcs := lcsTable(target, pred)[len(target)][len(pred)]
	p := float64(lcs) / float64(len(pred))
	r := float64(lcs) / float64(len(target))
	return RougeScore{p, r, rougeF(p, r)}
}

// lcsIndices is lcs_ind: indices into ref of one longest common
// subsequence, by _backtrack_norec's rule.
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

// rougeSents splits a summary into sentences at newlines (rougeLsum
// without split_summaries), tokenised, empty lines dropped.
func rougeSents(text string, tokenize func(string) []string) [][]string {
	var out [][]string
	for _, s := range strings.Split(text, "\n") {
		if s != "" {
			out = append(out, tokenize(s))
		}
	}
	return out
}

// RougeTokenizeStem is rouge_score's tokenizer with use_stemmer=True:
// RougeTokenize's tokens, those longer than 3 characters stemmed (stem is
// NLTK's PorterStemmer().stem).
func RougeTokenizeStem(text string, stem func(string) string) []string {
	text = rougeNonAlnum.ReplaceAllString(pyre.Lower(text), " ")
	var out []string
	for _, t := range strings.FieldsFunc(text, pyre.IsSpace) {
		if len([]rune(t)) > 3 {
			t = stem(t)
		}
		if rougeValid.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// RougeLsum is rougeLsum (_summary_level_lcs) of two texts whose
// sentences are separated by newlines: the union LCS of each target
// sentence with the prediction's sentences, each token counted at most as
// often as it occurs on both sides.
func RougeLsum(target, pred string) RougeScore {
	return RougeLsumTokenized(target, pred, RougeTokenize)
}

// RougeLsumTokenized is RougeLsum with another tokenizer (a RougeScorer
// with use_stemmer=True: RougeTokenizeStem).
func RougeLsumTokenized(target, pred string, tokenize func(string) []string) RougeScore {
	ref, can := rougeSents(target, tokenize), rougeSents(pred, tokenize)
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
	p := float64(hits) / float64(n)
	r := float64(hits) / float64(m)
	return RougeScore{p, r, rougeF(p, r)}
}

// RougeScores is RougeScorer(types).score(target, prediction): one score
// per type (rouge1..rouge9, rougeL, rougeLsum), in types' order.
func RougeScores(target, pred string, types []string) ([]RougeScore, error) {
	tt, pt := RougeTokenize(target), RougeTokenize(pred)
	out := make([]RougeScore, len(types))
	for i, ty := range types {
		switch {
		case ty == "rougeL":
			out[i] = RougeL(tt, pt)
		case ty == "rougeLsum":
			out[i] = RougeLsum(target, pred)
		case len(ty) == 6 && strings.HasPrefix(ty, "rouge") && ty[5] >= '1' && ty[5] <= '9':
			out[i] = RougeN(tt, pt, int(ty[5]-'0'))
		default:
			return nil, fmt.Errorf("rouge: invalid rouge type %q", ty)
		}
	}
	return out, nil
}

// RougeTypes are evaluate's rouge metric's default rouge_types.
var RougeTypes = []string{"rouge1", "rouge2", "rougeL", "rougeLsum"}

// rougeBootstrapSamples is BootstrapAggregator's n_samples.
const rougeBootstrapSamples = 1000

// rougeBootstrapMid is BootstrapAggregator's mid (the 50th percentile of
// the means of n_samples resamples with replacement) of one score type's
// f-measures, drawing the resamples from rng as _bootstrap_resample does
// with np.random.choice(np.arange(n), size=n).
func rougeBootstrapMid(f []float64, rng *nprand.RandomState) float64 {
	n := len(f)
	means := make([]float64, rougeBootstrapSamples)
	for i := range means {
		s := 0.0 // np.mean along axis 0: summed in order, then divided
		for k := 0; k < n; k++ {
			s += f[rng.Intn(n)]
		}
		means[i] = s / float64(n)
	}
	sort.Float64s(means)
	// np.percentile(..., 50), linear: virtual index 499.5 of 1000, and
	// numpy's _lerp for t = 0.5 (b - (b-a)*(1-t)).
	a, b := means[rougeBootstrapSamples/2-1], means[rougeBootstrapSamples/2]
	return b - (b-a)*0.5
}

// EvaluateRouge is evaluate.load("rouge").compute(predictions, references)
// with its defaults (rouge1, rouge2, rougeL, rougeLsum; aggregated; no
// stemmer): each type's mid f-measure of rouge_score's bootstrap. The
// module runs _compute under temp_seed(seed), seed being the global NumPy
// generator's state word at load (lm-eval's np.random.seed(1234) leaves
// 1234 there), so every call resamples from np.random.seed(seed); the
// types are resampled in order from the one generator.
func EvaluateRouge(refs, preds []string, seed uint32) (map[string]float64, error) {
	return EvaluateRougeTypes(refs, preds, RougeTypes, nprand.New(seed))
}

// EvaluateRougeTypes is EvaluateRouge's scores of types (in that order,
// as rouge_types=types), resampled from rng. With types the defaults'
// leading ones (rouge1 alone, say) it gives the same values as the
// defaults, the later types' resamples coming after.
func EvaluateRougeTypes(refs, preds, types []string, rng *nprand.RandomState) (map[string]float64, error) {
	if len(refs) != len(preds) {
		return nil, fmt.Errorf("rouge: %d references for %d predictions", len(refs), len(preds))
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("rouge: no predictions")
	}
	f := make([][]float64, len(types))
	for i := range f {
		f[i] = make([]float64, len(refs))
	}
	for d := range refs {
		sc, err := RougeScores(refs[d], preds[d], types)
		if err != nil {
			return nil, err
		}
		for i, s := range sc {
			f[i][d] = s.FMeasure
		}
	}
	out := map[string]float64{}
	for i, ty := range types {
		out[ty] = rougeBootstrapMid(f[i], rng)
	}
	return out, nil
}
