package afrobench

import (
	"fmt"
	"math"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// masakhapos/prompt_*/utils.py: the UPOS tag names of a sentence as the
// target, and acc_score, the mean per-sentence accuracy of the predicted
// tags.
//
// lm-eval takes a target that is a list for several acceptable answers
// (multiple_target), so its acc metric scores each document 1.0 (a
// passthrough pair is truthy) and acc_score then fails on the floats with
// TypeError: 'float' object is not iterable: every masakhapos task fails
// at aggregation in lm-eval, and here the same way (--predict_only runs).

// POSTags are doc_to_target's pos_tag_map, by tag id.
var POSTags = []string{"NOUN", "PUNCT", "ADP", "NUM", "SYM", "SCONJ", "ADJ", "PART", "DET",
	"CCONJ", "PROPN", "PRON", "X", "_", "ADV", "INTJ", "VERB", "AUX"}

// POSDocToTarget is doc_to_target: the names of doc["upos"]'s tags.
func POSDocToTarget(doc task.Doc) (any, error) {
	v, err := pydoc.Field(doc, "upos")
	if err != nil {
		return nil, err
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("upos is %T, want a list of tag ids", v)
	}
	out := make([]any, len(l))
	for i, t := range l {
		if out[i], err = pydoc.Lookup(POSTags, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// iterate is list(x) for the values Python iterates here: a list's
// elements, a string's characters.
func iterate(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case string:
		var out []any
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	}
	return nil, fmt.Errorf("TypeError: '%s' object is not iterable", pyTypeName(v))
}

// AccScore is acc_score(items): per (gold tags, predictions) pair, the
// predictions' tag lists are concatenated, both sides cut to the shorter
// length and sklearn's accuracy_score taken; the mean over documents.
func AccScore(items []any) (float64, error) {
	ps, err := pairs("acc_score", items)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for i, p := range ps {
		gold, err := iterate(p[0])
		if err != nil {
			return 0, fmt.Errorf("acc_score: document %d's target: %w", i, err)
		}
		preds, err := iterate(p[1])
		if err != nil {
			return 0, fmt.Errorf("acc_score: document %d's prediction: %w", i, err)
		}
		var flat []any // list(chain.from_iterable(p))
		for _, e := range preds {
			l, err := iterate(e)
			if err != nil {
				return 0, fmt.Errorf("acc_score: document %d's prediction: %w", i, err)
			}
			flat = append(flat, l...)
		}
		n := min(len(gold), len(flat))
		if n == 0 {
			// accuracy_score of two empty lists: numpy's mean of an
			// empty array.
			sum += math.NaN()
			continue
		}
		same := 0
		for j := 0; j < n; j++ {
			if pyval.Equal(gold[j], flat[j]) {
				same++
			}
		}
		sum += float64(same) / float64(n)
	}
	return sum / float64(len(ps)), nil
}

// AccScoreAggregation is AccScore registered with the metrics package.
var AccScoreAggregation = &metrics.Aggregation{Name: "acc_score", Fn: AccScore}
