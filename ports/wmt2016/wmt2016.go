// Package wmt2016 ports lm_eval/tasks/wmt2016/metrics.py: each document's
// (prediction, reference), and Hugging Face evaluate's corpus BLEU over
// them (tensorflow/nmt's compute_bleu on mteval-v13a tokens, no
// smoothing).
package wmt2016

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
)

// bleuItem is metrics.bleu's value: (predictions[0], references[0]).
func bleuItem(_ context.Context, references, predictions []any, _ map[string]any) (any, error) {
	if len(predictions) == 0 || len(references) == 0 {
		return nil, fmt.Errorf("IndexError: no prediction or reference")
	}
	return []any{predictions[0], references[0]}, nil
}

// tokens is evaluate's Tokenizer13a: mteval-v13a's tokens.
func tokens(s string) []string {
	return strings.FieldsFunc(metrics.Tokenize13a(s), pyre.IsSpace)
}

func ngrams(toks []string, maxOrder int) map[string]int {
	m := map[string]int{}
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= len(toks); i++ {
			m[strings.Join(toks[i:i+n], "\x00")]++
		}
	}
	return m
}

// CorpusBLEU is evaluate's bleu.compute(predictions, references)["bleu"]
// with one reference per prediction: tensorflow/nmt's compute_bleu
// (max_order=4, smooth=False), which evaluate's bleu.py downloads. Like it,
// it fails on a corpus whose predictions or references have no words: the
// brevity penalty divides by both lengths (ZeroDivisionError).
func CorpusBLEU(predictions, references []string) (float64, error) {
	const maxOrder = 4
	var matches, possible [maxOrder]int
	refLen, transLen := 0, 0
	for i := range predictions {
		if i >= len(references) {
			break
		}
		ref, trans := tokens(references[i]), tokens(predictions[i])
		refLen += len(ref)
		transLen += len(trans)
		refCounts := ngrams(ref, maxOrder)
		for g, c := range ngrams(trans, maxOrder) {
			if rc := refCounts[g]; rc > 0 {
				matches[strings.Count(g, "\x00")] += min(c, rc)
			}
		}
		for order := 1; order <= maxOrder; order++ {
			if p := len(trans) - order + 1; p > 0 {
				possible[order-1] += p
			}
		}
	}
	var precisions [maxOrder]float64
	minP := math.Inf(1)
	for i := range precisions {
		if possible[i] > 0 {
			precisions[i] = float64(matches[i]) / float64(possible[i])
		}
		minP = math.Min(minP, precisions[i])
	}
	geoMean := 0.0
	if minP > 0 {
		sum := 0.0
		for _, p := range precisions {
			sum += (1.0 / maxOrder) * math.Log(p)
		}
		geoMean = math.Exp(sum)
	}
	if refLen == 0 || transLen == 0 {
		return 0, fmt.Errorf("ZeroDivisionError: float division by zero (BLEU over %d prediction and %d reference words)", transLen, refLen)
	}
	ratio := float64(transLen) / float64(refLen)
	bp := 1.0
	if ratio <= 1.0 {
		bp = math.Exp(1 - 1.0/ratio)
	}
	return geoMean * bp, nil
}

// AggBLEU is agg_bleu: the corpus BLEU of the documents' (prediction,
// reference) pairs.
func AggBLEU(items []any) (float64, error) {
	preds := make([]string, len(items))
	refs := make([]string, len(items))
	for i, it := range items {
		l, ok := it.([]any)
		if !ok || len(l) != 2 {
			return 0, fmt.Errorf("agg_bleu: item %d is %v, want (prediction, reference)", i, it)
		}
		p, ok1 := l[0].(string)
		r, ok2 := l[1].(string)
		if !ok1 || !ok2 {
			return 0, fmt.Errorf("agg_bleu: item %d: prediction %s and reference %s must be str", i, pydoc.TypeName(l[0]), pydoc.TypeName(l[1]))
		}
		preds[i], refs[i] = p, r
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("agg_bleu: no items")
	}
	bleu, err := CorpusBLEU(preds, refs)
	if err != nil {
		return 0, fmt.Errorf("agg_bleu: %w", err)
	}
	return bleu, nil
}

// Agg is agg_bleu as a named aggregation (no standard error, as lm-eval
// gives a custom aggregation).
var Agg = &metrics.Aggregation{Name: "wmt2016/metrics.py:agg_bleu", Fn: AggBLEU}

func init() {
	metrics.RegisterAggregation(Agg)
	task.RegisterMetric(task.Helper{File: "wmt2016/metrics.py", Function: "bleu",
		SHA256: "b30d1dd10d27a7d5ea3709b5354f854a227373356d97b3f0f72f9f0e8fd5c106"}, bleuItem)
	task.RegisterAggregation(task.Helper{File: "wmt2016/metrics.py", Function: "agg_bleu",
		SHA256: "306cc3705e29db2facf8cc032ee01baa905e391ce86784ce5cea18ba36a96cba"}, Agg)
}
