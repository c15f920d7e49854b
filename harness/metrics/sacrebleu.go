package metrics

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// This file reproduces sacrebleu 2.x's corpus_bleu, corpus_chrf and
// corpus_ter with their default settings, which lm-eval's bleu, chrf and
// ter aggregations call.

// tokenizer13a's regexes (sacrebleu's TokenizerRegexp), in Python syntax.
var tok13a = []struct {
	re   *pyre.Regexp
	repl string
}{
	{pyre.MustCompile(`([\{-\~\[-\` + "`" + ` -\&\(-\+\:-\@\/])`), ` \1 `},
	{pyre.MustCompile(`([^0-9])([\.,])`), `\1 \2 `},
	{pyre.MustCompile(`([\.,])([^0-9])`), ` \1 \2`},
	{pyre.MustCompile(`([0-9])(-)`), `\1 \2 `},
}

// pySplit is Python's str.split() with no argument.
func pySplit(s string) []string { return strings.FieldsFunc(s, pyre.IsSpace) }

// Tokenize13a is sacrebleu's default BLEU tokenizer (mteval-v13a).
func Tokenize13a(line string) string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", `"`)
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	line = " " + line + " "
	for _, t := range tok13a {
		line, _ = t.re.Sub(t.repl, line, 0)
	}
	return strings.Join(pySplit(line), " ")
}

const bleuOrder = 4

// bleuStats are one segment's sufficient statistics:
// [hyp_len, ref_len, correct_1..4, total_1..4].
type bleuStats [2 + 2*bleuOrder]float64

func wordNgrams(tokens []string) map[string]int {
	m := map[string]int{}
	for n := 1; n <= bleuOrder; n++ {
		for i := 0; i+n <= len(tokens); i++ {
			m[strings.Join(tokens[i:i+n], "\x00")]++
		}
	}
	return m
}

// segmentBLEU computes sacrebleu's BLEU statistics for one hypothesis and
// its references (n-gram counts clipped by the maximum over references,
// closest reference length, shorter one on ties).
func segmentBLEU(hyp string, refs []string) bleuStats {
	refMax := map[string]int{}
	var refLens []int
	for _, r := range refs {
		toks := pySplit(Tokenize13a(pyre.RStrip(r)))
		refLens = append(refLens, len(toks))
		for g, c := range wordNgrams(toks) {
			refMax[g] = max(refMax[g], c)
		}
	}
	htoks := pySplit(Tokenize13a(pyre.RStrip(hyp)))
	hl := len(htoks)
	closestDiff, closest := -1, -1
	for _, rl := range refLens {
		d := hl - rl
		if d < 0 {
			d = -d
		}
		if closestDiff == -1 || d < closestDiff {
			closestDiff, closest = d, rl
		} else if d == closestDiff && rl < closest {
			closest = rl
		}
	}
	var s bleuStats
	s[0], s[1] = float64(hl), float64(closest)
	for g, c := range wordNgrams(htoks) {
		n := strings.Count(g, "\x00")
		s[2+bleuOrder+n] += float64(c)
		if rc, ok := refMax[g]; ok {
			s[2+n] += float64(min(c, rc))
		}
	}
	return s
}

// bleuScore is sacrebleu's compute_bleu with smooth_method="exp" and
// effective_order=False.
func bleuScore(s bleuStats) float64 {
	sysLen, refLen := s[0], s[1]
	bp := 1.0
	if sysLen < refLen {
		bp = 0
		if sysLen > 0 {
			bp = math.Exp(1 - refLen/sysLen)
		}
	}
	correct, total := s[2:2+bleuOrder], s[2+bleuOrder:]
	any := false
	for _, c := range correct {
		any = any || c != 0
	}
	if !any {
		return 0
	}
	var prec [bleuOrder]float64
	smooth := 1.0
	for n := range bleuOrder {
		if total[n] == 0 {
			break
		}
		if correct[n] == 0 {
			smooth *= 2
			prec[n] = 100 / (smooth * total[n])
		} else {
			prec[n] = 100 * correct[n] / total[n]
		}
	}
	sum := 0.0
	for _, p := range prec {
		if p > 0 {
			sum += math.Log(p)
		} else {
			sum += -9999999999 // sacrebleu's my_log(0)
		}
	}
	return bp * math.Exp(sum/bleuOrder)
}

// sacreformat is lm-eval's _sacreformat: every document's references, cut
// to the smallest number of references any document has (Python's zip),
// and the predictions.
func sacreformat(name string, items []any) ([][]string, []string, error) {
	rps, err := itemsOf[RefPred](name, items)
	if err != nil {
		return nil, nil, err
	}
	nrefs := -1
	for _, rp := range rps {
		if nrefs < 0 || len(rp.Refs) < nrefs {
			nrefs = len(rp.Refs)
		}
	}
	refs := make([][]string, len(rps))
	preds := make([]string, len(rps))
	for i, rp := range rps {
		refs[i] = rp.Refs[:nrefs]
		preds[i] = rp.Pred
		for _, r := range refs[i] {
			if r == "" {
				return nil, nil, fmt.Errorf("aggregation %s: document %d has an empty reference (sacrebleu rejects it)", name, i)
			}
		}
	}
	if nrefs == 0 {
		return nil, nil, fmt.Errorf("aggregation %s: a document has no reference", name)
	}
	return refs, preds, nil
}

func prepareBLEU(items []any) (func([]int) float64, error) {
	refs, preds, err := sacreformat("bleu", items)
	if err != nil {
		return nil, err
	}
	stats := make([]bleuStats, len(preds))
	for i := range preds {
		stats[i] = segmentBLEU(preds[i], refs[i])
	}
	return func(idx []int) float64 {
		var sum bleuStats
		for _, i := range idx {
			st := &stats[i]
			for k := range sum {
				sum[k] += st[k]
			}
		}
		return bleuScore(sum)
	}, nil
}

// CorpusBLEU is sacrebleu.corpus_bleu(preds, refs).score with refs given
// per document.
func CorpusBLEU(preds []string, refs [][]string) (float64, error) {
	return corpus(prepareBLEU, preds, refs)
}

func corpus(prep func([]any) (func([]int) float64, error), preds []string, refs [][]string) (float64, error) {
	if len(preds) != len(refs) {
		return 0, fmt.Errorf("%d predictions, %d reference lists", len(preds), len(refs))
	}
	items := make([]any, len(preds))
	for i := range preds {
		items[i] = RefPred{Refs: refs[i], Pred: preds[i]}
	}
	return fromPrepared(prep)(items)
}

// chrF defaults: char_order 6, word_order 0, beta 2, no whitespace.
const (
	chrfOrder = 6
	chrfBeta  = 2.0
)

type chrfStats [3 * chrfOrder]float64

func charNgrams(s string) [chrfOrder]map[string]int {
	rs := []rune(strings.Join(pySplit(s), ""))
	var out [chrfOrder]map[string]int
	for n := 1; n <= chrfOrder; n++ {
		m := map[string]int{}
		for i := 0; i+n <= len(rs); i++ {
			m[string(rs[i:i+n])]++
		}
		out[n-1] = m
	}
	return out
}

func chrfF(s chrfStats) float64 {
	factor := chrfBeta * chrfBeta
	avgP, avgR, eff := 0.0, 0.0, 0
	for i := range chrfOrder {
		nh, nr, nm := s[3*i], s[3*i+1], s[3*i+2]
		if nh > 0 && nr > 0 {
			avgP += nm / nh
			avgR += nm / nr
			eff++
		}
	}
	if eff == 0 {
		return 0
	}
	avgP /= float64(eff)
	avgR /= float64(eff)
	if avgP+avgR == 0 {
		return 0
	}
	return 100 * (1 + factor) * avgP * avgR / (factor*avgP + avgR)
}

// segmentCHRF returns the statistics of the reference with the best chrF.
func segmentCHRF(hyp string, refs []string) chrfStats {
	h := charNgrams(hyp)
	var best chrfStats
	bestF := -1.0
	for _, r := range refs {
		rg := charNgrams(r)
		var s chrfStats
		for n := range chrfOrder {
			for g, c := range h[n] {
				s[3*n] += float64(c)
				s[3*n+2] += float64(min(c, rg[n][g]))
			}
			for _, c := range rg[n] {
				s[3*n+1] += float64(c)
			}
		}
		if f := chrfF(s); f > bestF {
			best, bestF = s, f
		}
	}
	return best
}

func prepareCHRF(items []any) (func([]int) float64, error) {
	refs, preds, err := sacreformat("chrf", items)
	if err != nil {
		return nil, err
	}
	stats := make([]chrfStats, len(preds))
	for i := range preds {
		stats[i] = segmentCHRF(preds[i], refs[i])
	}
	return func(idx []int) float64 {
		var sum chrfStats
		for _, i := range idx {
			st := &stats[i]
			for k := range sum {
				sum[k] += st[k]
			}
		}
		return chrfF(sum)
	}, nil
}

// CorpusCHRF is sacrebleu.corpus_chrf(preds, refs).score.
func CorpusCHRF(preds []string, refs [][]string) (float64, error) {
	return corpus(prepareCHRF, preds, refs)
}

// terTokenize is sacrebleu's TercomTokenizer with its defaults
// (case-insensitive, not normalized, punctuation kept).
func terTokenize(s string) []string {
	return pySplit(pyre.Lower(pyre.RStrip(s)))
}

// segmentTER returns (best edits over references, mean reference length).
func segmentTER(hyp string, refs []string) (float64, float64) {
	h := terTokenize(hyp)
	best := math.MaxInt
	total := 0
	for _, r := range refs {
		e, n := translationEditRate(h, terTokenize(r))
		total += n
		best = min(best, e)
	}
	return float64(best), float64(total) / float64(len(refs))
}

func prepareTER(items []any) (func([]int) float64, error) {
	refs, preds, err := sacreformat("ter", items)
	if err != nil {
		return nil, err
	}
	edits := make([]float64, len(preds))
	lens := make([]float64, len(preds))
	for i := range preds {
		edits[i], lens[i] = segmentTER(preds[i], refs[i])
	}
	return func(idx []int) float64 {
		e, l := 0.0, 0.0
		for _, i := range idx {
			e += edits[i]
			l += lens[i]
		}
		switch {
		case l > 0:
			return 100 * e / l
		case e > 0:
			return 100
		}
		return 0
	}, nil
}

// CorpusTER is sacrebleu.corpus_ter(preds, refs).score.
func CorpusTER(preds []string, refs [][]string) (float64, error) {
	return corpus(prepareTER, preds, refs)
}

// TER with shifts, after sacrebleu's lib_ter (itself after Tercom).
const (
	terMaxShiftSize       = 10
	terMaxShiftDist       = 50
	terBeamWidth          = 25
	terMaxShiftCandidates = 1000
	terInf                = int64(1e16)
)

const (
	opIns   = 'i'
	opDel   = 'd'
	opNop   = ' '
	opSub   = 's'
	opUndef = 'x'
)

type terCell struct {
	cost int64
	op   byte
}

// editDistance is lib_ter's BeamEditDistance without its cache (the cache
// only skips recomputing identical rows). It returns the distance and the
// trace of operations rewriting hyp into ref.
func editDistance(h, r []string) (int64, []byte) {
	nh, nr := len(h), len(r)
	dist := make([][]terCell, nh+1)
	dist[0] = make([]terCell, nr+1)
	for j := range dist[0] {
		dist[0][j] = terCell{int64(j), opIns}
	}
	for i := 1; i <= nh; i++ {
		dist[i] = make([]terCell, nr+1)
		for j := range dist[i] {
			dist[i][j] = terCell{terInf, opUndef}
		}
	}
	ratio := 1.0
	if nh > 0 {
		ratio = float64(nr) / float64(nh)
	}
	beam := terBeamWidth
	if float64(terBeamWidth) < ratio/2 {
		beam = int(math.Ceil(ratio/2 + terBeamWidth))
	}
	for i := 1; i <= nh; i++ {
		diag := int(math.Floor(float64(i) * ratio))
		minJ := max(0, diag-beam)
		maxJ := min(nr+1, diag+beam)
		if i == nh {
			maxJ = nr + 1
		}
		for j := minJ; j < maxJ; j++ {
			if j == 0 {
				dist[i][j] = terCell{dist[i-1][j].cost + 1, opDel}
				continue
			}
			costSub, opS := int64(1), byte(opSub)
			if h[i-1] == r[j-1] {
				costSub, opS = 0, opNop
			}
			for _, c := range [3]terCell{
				{dist[i-1][j-1].cost + costSub, opS},
				{dist[i-1][j].cost + 1, opDel},
				{dist[i][j-1].cost + 1, opIns},
			} {
				if dist[i][j].cost > c.cost {
					dist[i][j] = c
				}
			}
		}
	}
	var trace []byte
	i, j := nh, nr
	for i > 0 || j > 0 {
		op := dist[i][j].op
		trace = append(trace, op)
		switch op {
		case opSub, opNop:
			i--
			j--
		case opIns:
			j--
		case opDel:
			i--
		default:
			panic("ter: undefined edit operation in trace")
		}
	}
	slices.Reverse(trace)
	return dist[nh][nr].cost, trace
}

func translationEditRate(h, r []string) (int, int) {
	if len(r) == 0 {
		return len(h), 0
	}
	shifts := 0
	input := h
	checked := 0
	for {
		var delta int64
		var next []string
		delta, next, checked = terShift(input, r, checked)
		if checked >= terMaxShiftCandidates || delta <= 0 {
			break
		}
		shifts++
		input = next
	}
	ed, _ := editDistance(input, r)
	return shifts + int(ed), len(r)
}

type shiftCand struct {
	score   int64
	length  int
	negH    int
	negIdx  int
	shifted []string
}

func (a shiftCand) greater(b shiftCand) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.length != b.length {
		return a.length > b.length
	}
	if a.negH != b.negH {
		return a.negH > b.negH
	}
	if a.negIdx != b.negIdx {
		return a.negIdx > b.negIdx
	}
	return slices.Compare(a.shifted, b.shifted) > 0
}

func terShift(h, r []string, checked int) (int64, []string, int) {
	pre, inv := editDistance(h, r)
	// flip the trace: rewrite the reference into the hypothesis
	trace := make([]byte, len(inv))
	for i, op := range inv {
		switch op {
		case opIns:
			trace[i] = opDel
		case opDel:
			trace[i] = opIns
		default:
			trace[i] = op
		}
	}
	align := map[int]int{}
	var refErr, hypErr []int
	ph, pr := -1, -1
	for _, op := range trace {
		switch op {
		case opNop, opSub:
			ph++
			pr++
			align[pr] = ph
			e := 0
			if op == opSub {
				e = 1
			}
			hypErr = append(hypErr, e)
			refErr = append(refErr, e)
		case opIns:
			ph++
			hypErr = append(hypErr, 1)
		case opDel:
			pr++
			align[pr] = ph
			refErr = append(refErr, 1)
		}
	}
	sum := func(xs []int, a, n int) int {
		s := 0
		for k := a; k < a+n && k < len(xs); k++ {
			s += xs[k]
		}
		return s
	}
	var best *shiftCand
	nh, nr := len(h), len(r)
outer:
	for sh := 0; sh < nh; sh++ {
		for sr := 0; sr < nr; sr++ {
			if d := sr - sh; d > terMaxShiftDist || -d > terMaxShiftDist {
				continue
			}
			for length := 1; length <= terMaxShiftSize && h[sh+length-1] == r[sr+length-1]; length++ {
				if sum(hypErr, sh, length) != 0 && sum(refErr, sr, length) != 0 &&
					!(sh <= align[sr] && align[sr] < sh+length) {
					prev := -1
					for off := -1; off < length; off++ {
						var idx int
						if sr+off == -1 {
							idx = 0
						} else if a, ok := align[sr+off]; ok {
							idx = a + 1
						} else {
							break
						}
						if idx == prev {
							continue
						}
						prev = idx
						shifted := performShift(h, sh, length, idx)
						ed, _ := editDistance(shifted, r)
						c := shiftCand{pre - ed, length, -sh, -idx, shifted}
						checked++
						if best == nil || c.greater(*best) {
							best = &c
						}
					}
					if checked >= terMaxShiftCandidates {
						break outer
					}
				}
				if sh+length == nh || sr+length == nr {
					break
				}
			}
		}
	}
	if best == nil {
		return 0, h, checked
	}
	return best.score, best.shifted, checked
}

func performShift(w []string, start, length, target int) []string {
	out := make([]string, 0, len(w))
	switch {
	case target < start:
		out = append(out, w[:target]...)
		out = append(out, w[start:start+length]...)
		out = append(out, w[target:start]...)
		out = append(out, w[start+length:]...)
	case target > start+length:
		out = append(out, w[:start]...)
		out = append(out, w[start+length:target]...)
		out = append(out, w[start:start+length]...)
		out = append(out, w[target:]...)
	default:
		out = append(out, w[:start]...)
		out = append(out, w[start+length:length+target]...)
		out = append(out, w[start:start+length]...)
		out = append(out, w[length+target:]...)
	}
	return out
}
