// Package noticia ports lm_eval/tasks/noticia/utils.py: ROUGE-1 of the
// clickbait summaries (Hugging Face evaluate's rouge over the cleaned
// texts) and their average length in words. Its rouge1 passthrough is
// catalan_bench's source, ported there.
package noticia

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/rouge"
	"github.com/lmeval/lmeval/python/pyre"
)

// numpySeed is lm-eval's default NumPy seed: evaluate's rouge, loaded
// inside rouge1_agg, resamples under temp_seed of the global generator's
// first state word, which np.random.seed(1234) leaves at 1234 (see
// metrics.EvaluateRouge).
const numpySeed = 1234

const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// cleanText is clean_text: ASCII punctuation removed, newlines made
// spaces, whitespace runs single spaces, lower-cased.
func cleanText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, s)
	s = pyre.Strip(strings.ReplaceAll(s, "\n", " "))
	s = strings.Join(strings.FieldsFunc(s, pyre.IsSpace), " ")
	return pyre.Lower(s)
}

// pairs reads the passthrough items [gold, result].
func pairs(name string, items []any) (golds, results []string, err error) {
	if len(items) == 0 {
		return nil, nil, fmt.Errorf("%s: IndexError: no documents", name)
	}
	for i, it := range items {
		p, ok := it.([]any)
		if !ok || len(p) != 2 {
			return nil, nil, fmt.Errorf("%s: item %d is %v, want [reference, prediction]", name, i, it)
		}
		g, ok1 := p[0].(string)
		r, ok2 := p[1].(string)
		if !ok1 || !ok2 {
			return nil, nil, fmt.Errorf("%s: item %d: reference %s and prediction %s must be str", name, i, pydoc.TypeName(p[0]), pydoc.TypeName(p[1]))
		}
		golds, results = append(golds, g), append(results, r)
	}
	return golds, results, nil
}

// Rouge1Agg is rouge1_agg: evaluate's rouge1 of the cleaned predictions
// against the cleaned references (one each).
func Rouge1Agg(items []any) (float64, error) {
	golds, results, err := pairs("rouge1_agg", items)
	if err != nil {
		return 0, err
	}
	for i := range golds {
		golds[i], results[i] = cleanText(golds[i]), cleanText(results[i])
	}
	res, err := metrics.EvaluateRouge(golds, results, numpySeed)
	if err != nil {
		return 0, fmt.Errorf("rouge1_agg: %w", err)
	}
	return res["rouge1"], nil
}

// AverageLenAgg is average_len_agg: the cleaned predictions' mean word
// count.
func AverageLenAgg(items []any) (float64, error) {
	_, results, err := pairs("average_len_agg", items)
	if err != nil {
		return 0, err
	}
	words := 0
	for _, r := range results {
		words += len(strings.FieldsFunc(cleanText(r), pyre.IsSpace))
	}
	return float64(words) / float64(len(results)), nil
}

// The aggregations, registered under their file and function (no standard
// error, as lm-eval gives a custom aggregation).
var (
	Rouge1 = &metrics.Aggregation{Name: "noticia/utils.py:rouge1_agg", Fn: Rouge1Agg}
	AvgLen = &metrics.Aggregation{Name: "noticia/utils.py:average_len_agg", Fn: AverageLenAgg}
)

func init() {
	metrics.RegisterAggregation(Rouge1)
	metrics.RegisterAggregation(AvgLen)
	const file = "noticia/utils.py"
	// average_len(items) returns its argument, as rouge1 does: lm-eval
	// calls it with [gold, result] after references=/predictions=
	// raise TypeError.
	task.RegisterMetric(task.Helper{File: file, Function: "average_len", SHA256: "67c6920849782c1789ae70aa376be474c71d68f37cce2bb274f0c1808ea4d9b2"}, rouge.Passthrough)
	task.RegisterAggregation(task.Helper{File: file, Function: "rouge1_agg", SHA256: "6c3abfe516744e39b80acc21223a0fe4774a880ad6988216f3affe72c544b670"}, Rouge1)
	task.RegisterAggregation(task.Helper{File: file, Function: "average_len_agg", SHA256: "a802c1add8a34b1c33ee657238677ac053117b28f4cf13f1df4435a78edd51b0"}, AvgLen)
}
