package afrobench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/python/pyre"
)

// afriqa/prompt_*/utils.py: SQuAD v1.1's token F1, averaged over the
// documents (the f1 metric's aggregation).

var squadArticles = pyre.MustCompile(`\b(a|an|the)\b`)

const asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" // string.punctuation

// NormalizeAnswer is normalize_answer: lower-case, drop ASCII
// punctuation, replace the articles a/an/the by a space, collapse
// whitespace.
func NormalizeAnswer(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && strings.ContainsRune(asciiPunctuation, r) {
			return -1
		}
		return r
	}, pyre.Lower(s))
	s, _ = squadArticles.Sub(" ", s, 0)
	return strings.Join(strings.FieldsFunc(s, pyre.IsSpace), " ")
}

// tokenF1 is one document's F1 of the normalised tokens.
func tokenF1(gold, pred string) float64 {
	pt := strings.FieldsFunc(NormalizeAnswer(pred), pyre.IsSpace)
	rt := strings.FieldsFunc(NormalizeAnswer(gold), pyre.IsSpace)
	return metrics.TokenF1(pt, rt)
}

// pairs reads an aggregation's items as lm-eval's passthrough metrics
// make them: [gold, result] per document. A float (the value a document
// with several targets gets) is not iterable in Python.
func pairs(name string, items []any) ([][2]any, error) {
	out := make([][2]any, len(items))
	for i, it := range items {
		l, ok := it.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: TypeError: '%s' object is not iterable (document %d's value is %v, not a (gold, prediction) pair)", name, pyTypeName(it), i, it)
		}
		if len(l) != 2 {
			return nil, fmt.Errorf("%s: document %d: want a (gold, prediction) pair, got %d values", name, i, len(l))
		}
		out[i] = [2]any{l[0], l[1]}
	}
	return out, nil
}

func pyTypeName(v any) string {
	switch v.(type) {
	case float64, float32:
		return "float"
	case int, int64:
		return "int"
	case bool:
		return "bool"
	case nil:
		return "NoneType"
	case string:
		return "str"
	}
	return fmt.Sprintf("%T", v)
}

// AfriQAF1 is afriqa's f1(items): the mean over documents of the token
// F1 of prediction and gold.
func AfriQAF1(items []any) (float64, error) {
	ps, err := pairs("f1", items)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for i, p := range ps {
		gold, ok1 := p[0].(string)
		pred, ok2 := p[1].(string)
		if !ok1 || !ok2 {
			return 0, fmt.Errorf("f1: document %d: AttributeError: gold and prediction must be text, got %T and %T", i, p[0], p[1])
		}
		sum += tokenF1(gold, pred)
	}
	return sum / float64(len(ps)), nil
}

// AfriQAF1Aggregation is AfriQAF1 registered with the metrics package.
var AfriQAF1Aggregation = &metrics.Aggregation{Name: "afriqa_f1", Fn: AfriQAF1}
