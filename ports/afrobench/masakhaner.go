package afrobench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// masakhaner/prompt_*/utils.py: span_f1_agg, mT5's span F1 (CoNLL) over
// "TAG: entity $$ TAG: entity" strings.

var (
	nerPunct    = pyre.MustCompile("[" + "!\"$%&'()*+,-./:;<=>?[\\]^_`{|}~•@.\"\"-,`" + "]+")
	nerArticles = pyre.MustCompile(`\b(a|an|the)\b`)
	nerBlank    = pyre.MustCompile(`\s{3,}|\t`)
	nerSpaces   = pyre.MustCompile(`\s+`)
)

// nerNormalize is span_f1_agg's normalize_text: punctuation runs become a
// space, then the articles, then blank runs go, then lower-case.
func nerNormalize(s string) string {
	s, _ = nerPunct.Sub(" ", s, 0)
	s, _ = nerArticles.Sub(" ", s, 0)
	s, _ = nerBlank.Sub("", s, 0)
	s, _ = nerSpaces.Sub(" ", s, 0)
	return pyre.Lower(s)
}

type span struct{ tag, entity string }

// tagsToSpans is span_f1_agg's tags_to_spans: a list is joined with
// spaces first; the text is split at "$$", "$", ". " and ", " and each
// "tag: entity" piece kept.
func tagsToSpans(seq any) ([]span, error) {
	var s string
	switch x := seq.(type) {
	case string:
		s = x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			t, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("AttributeError: '%s' object has no attribute 'strip'", pyTypeName(e))
			}
			parts[i] = pyre.Strip(t)
		}
		s = strings.Join(parts, " ")
	default:
		return nil, fmt.Errorf("AttributeError: '%s' object has no attribute 'strip'", pyTypeName(seq))
	}
	var first []string
	for _, sub := range strings.Split(pyre.Strip(s), "$$") {
		for _, item := range strings.Split(sub, "$") {
			if item != "" {
				first = append(first, pyre.Strip(item))
			}
		}
	}
	var out []span
	for _, v := range first {
		for _, sub := range strings.Split(v, ". ") {
			for _, item := range strings.Split(sub, ", ") {
				te := strings.Split(pyre.Strip(item), ": ")
				if len(te) != 2 {
					continue
				}
				out = append(out, span{nerNormalize(pyre.Strip(te[0])), nerNormalize(pyre.LStrip(pyre.RStrip(te[1])))})
			}
		}
	}
	return out, nil
}

// SpanF1 is span_f1_agg(items): the micro F1 of the (tag, entity) spans
// of the predictions against the targets', each gold span matched once.
func SpanF1(items []any) (float64, error) {
	ps, err := pairs("span_f1_agg", items)
	if err != nil {
		return 0, err
	}
	tp, fp, fn := 0, 0, 0
	for i, p := range ps {
		gold, err := tagsToSpans(p[0])
		if err != nil {
			return 0, fmt.Errorf("span_f1_agg: document %d's target %s: %w", i, pyval.Repr(p[0]), err)
		}
		pred, err := tagsToSpans(p[1])
		if err != nil {
			return 0, fmt.Errorf("span_f1_agg: document %d's prediction %s: %w", i, pyval.Repr(p[1]), err)
		}
		for _, sp := range pred {
			found := -1
			for j, g := range gold {
				if g == sp {
					found = j
					break
				}
			}
			if found >= 0 {
				tp++
				gold = append(gold[:found], gold[found+1:]...)
			} else {
				fp++
			}
		}
		fn += len(gold)
	}
	precision := float64(tp) / (float64(tp+fp) + 1e-13)
	recall := float64(tp) / (float64(tp+fn) + 1e-13)
	return 2.0 * ((precision * recall) / (precision + recall + 1e-13)), nil
}

// SpanF1Aggregation is SpanF1 registered with the metrics package.
var SpanF1Aggregation = &metrics.Aggregation{Name: "span_f1_agg", Fn: SpanF1}
