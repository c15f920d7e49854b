// Package mlqa ports lm_eval/tasks/mlqa/utils.py (after MLQA's official
// evaluation script): the documents keep context, question and the
// answers' texts; process_results_<lang> scores the stripped answer by
// exact match and token F1, the best over the gold answers, after the
// language's normalisation (lower-case, Unicode punctuation removed, the
// language's articles removed, whitespace or mixed Chinese segmentation).
package mlqa

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/python/pyre"
)

// Columns are the keys process_docs's _process_doc returns.
var Columns = []string{"context", "question", "answers"}

// ProcessDocs is process_docs.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		ctx, err := pydoc.Field(d, "context")
		if err != nil {
			return err
		}
		q, err := pydoc.Field(d, "question")
		if err != nil {
			return err
		}
		ans, err := pyfn.Path(d, "answers", "text")
		if err != nil {
			return err
		}
		d["context"], d["question"], d["answers"] = ctx, q, ans
		return nil
	})
}

// isPunct is membership of PUNCT: Unicode category P* or
// string.punctuation.
func isPunct(r rune) bool {
	return unicode.IsPunct(r) || (r < 128 && strings.ContainsRune(squad.Punctuation, r))
}

var articles = map[string]*pyre.Regexp{
	"en": pyre.MustCompile(`\b(a|an|the)\b`),
	"es": pyre.MustCompile(`\b(un|una|unos|unas|el|la|los|las)\b`),
	"vi": pyre.MustCompile(`\b(của|là|cái|chiếc|những)\b`),
	"de": pyre.MustCompile(`\b(ein|eine|einen|einem|eines|einer|der|die|das|den|dem|des)\b`),
	"ar": pyre.MustCompile(`(?:^|\s)ال`),
}

// Langs are the languages of process_results_<lang>.
var Langs = []string{"en", "es", "hi", "vi", "de", "ar", "zh"}

// mixedSegmentation is mixed_segmentation: each CJK ideograph (and each
// punctuation character) a token of its own, whitespace tokens between.
func mixedSegmentation(text string) []string {
	var out []string
	var tmp strings.Builder
	flush := func() {
		if tmp.Len() > 0 {
			out = append(out, pyfn.Split(tmp.String())...)
			tmp.Reset()
		}
	}
	for _, r := range text {
		if (r >= 0x4e00 && r <= 0x9fa5) || isPunct(r) {
			flush()
			out = append(out, string(r))
		} else {
			tmp.WriteRune(r)
		}
	}
	flush()
	return out
}

// NormalizeAnswer is normalize_answer(s, lang).
func NormalizeAnswer(s, lang string) (string, error) {
	s = pyre.Lower(s)
	s = strings.Map(func(r rune) rune {
		if isPunct(r) {
			return -1
		}
		return r
	}, s)
	switch lang {
	case "hi", "zh":
	default:
		re, ok := articles[lang]
		if !ok {
			return "", fmt.Errorf("Exception: Unknown Language %s", lang)
		}
		s = pyfn.Sub(re, " ", s)
	}
	var toks []string
	if lang == "zh" {
		toks = mixedSegmentation(s)
	} else {
		toks = pyfn.Split(s)
	}
	kept := toks[:0:0]
	for _, t := range toks {
		if pyre.Strip(t) != "" {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, " "), nil
}

// F1Score is f1_score(prediction, ground_truth, lang): 0 (an int) when no
// token is shared.
func F1Score(prediction, truth, lang string) (any, error) {
	p, err := NormalizeAnswer(prediction, lang)
	if err != nil {
		return nil, err
	}
	g, err := NormalizeAnswer(truth, lang)
	if err != nil {
		return nil, err
	}
	pt, gt := pyfn.Split(p), pyfn.Split(g)
	same := squad.CommonCount(pt, gt)
	if same == 0 {
		return int64(0), nil
	}
	precision := float64(same) / float64(len(pt))
	recall := float64(same) / float64(len(gt))
	return (2 * precision * recall) / (precision + recall), nil
}

// ExactMatchScore is exact_match_score: a bool.
func ExactMatchScore(prediction, truth, lang string) (any, error) {
	p, err := NormalizeAnswer(prediction, lang)
	if err != nil {
		return nil, err
	}
	g, err := NormalizeAnswer(truth, lang)
	if err != nil {
		return nil, err
	}
	return p == g, nil
}

// num is a score's value for max(): bools and ints as numbers.
func num(v any) float64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// maxOver is metric_max_over_ground_truths: Python's max, which keeps the
// first of equal values.
func maxOver(fn func(p, g, lang string) (any, error), prediction string, truths []string, lang string) (any, error) {
	if len(truths) == 0 {
		return nil, fmt.Errorf("ValueError: max() arg is an empty sequence")
	}
	var best any
	for i, g := range truths {
		s, err := fn(prediction, g, lang)
		if err != nil {
			return nil, err
		}
		if i == 0 || num(s) > num(best) {
			best = s
		}
	}
	return best, nil
}

// ProcessResultsLang is process_results_lang(doc, results, lang).
func ProcessResultsLang(doc task.Doc, results []any, lang string) (map[string]any, error) {
	truths, err := pyfn.StrList(doc, "answers")
	if err != nil {
		return nil, err
	}
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	pred := pyre.Strip(r)
	em, err := maxOver(ExactMatchScore, pred, truths, lang)
	if err != nil {
		return nil, err
	}
	f1, err := maxOver(F1Score, pred, truths, lang)
	if err != nil {
		return nil, err
	}
	return map[string]any{"exact_match": em, "f1": f1}, nil
}
