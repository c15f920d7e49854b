package metrics

import (
	"fmt"
	"github.com/lmeval/lmeval/harness/model"
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// "wer" is not among lm-eval's metrics: for a metric_list "wer" lm-eval
// loads Hugging Face evaluate's (wmt2016's ro-en task uses it), which
// scores a generation with jiwer's compute_measures(reference, prediction)
// and its default transformation: runs of whitespace made one space,
// stripped, split at spaces. The word error rate is (S+D+I)/(S+D+H), the
// word-level Levenshtein distance over the reference's word count.

var werSpaces = pyre.MustCompile(`\s\s+`)

// werWords is jiwer's wer_default transformation (RemoveMultipleSpaces,
// Strip, ReduceToListOfListOfWords) of one sentence.
func werWords(s string) []string {
	s = pyre.Strip(werSpaces.SubFunc(s, 0, func(*pyre.Match) string { return " " }))
	var out []string
	for _, w := range strings.Split(s, " ") {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// WER is evaluate's wer.compute(references=[ref], predictions=[pred]).
func WER(pred, ref string) (float64, error) {
	r, h := werWords(ref), werWords(pred)
	if len(r) == 0 {
		return 0, fmt.Errorf("wer: the reference has no words (jiwer: one or more references are empty strings)")
	}
	// Levenshtein distance over words.
	prev := make([]int, len(h)+1)
	cur := make([]int, len(h)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(h); j++ {
			sub := prev[j-1]
			if r[i-1] != h[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(h)]) / float64(len(r)), nil
}

func genWER(_ Spec, d *DocResult) (any, error) {
	if !d.Multiple {
		return WER(d.Result, d.Golds[0])
	}
	// lm-eval scores each target and counts 1.0 when any score is
	// nonzero (its multiple_target rule, meant for 0/1 metrics).
	for _, g := range d.Golds {
		w, err := WER(d.Result, g)
		if err != nil {
			return nil, err
		}
		if w != 0 {
			return 1.0, nil
		}
	}
	return 0.0, nil
}

func init() {
	Register(Metric{Name: "wer", Aggregation: "mean", OutputTypes: []model.OutputType{model.OutputGenerateUntil},
		Doc: byType("wer", map[model.OutputType]DocFunc{model.OutputGenerateUntil: genWER})})
}
