// Package french_bench ports lm_eval/tasks/french_bench's helpers: the
// SQuAD-style exact and f1 metrics with French articles, is_included,
// and the French Wikitext's detokenizer and scores (its rouge1 and
// rouge1_agg are catalan_bench's sources, its hellaswag process_docs
// hellaswag's).
package french_bench

import (
	"context"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/catalan_bench" // rouge1, rouge1_agg
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/ports/wikitext"
	"github.com/lmeval/lmeval/python/pyre"
)

// French is normalize_answer with the French articles.
var French = squad.Normalizer{Articles: pyre.MustCompile(`\b(un|une|des|le|la|les)\b`)}

func first(refs, preds []any) (string, string, error) {
	if len(refs) == 0 || len(preds) == 0 {
		return "", "", fmt.Errorf("IndexError: list index out of range")
	}
	r, ok1 := refs[0].(string)
	p, ok2 := preds[0].(string)
	if !ok1 || !ok2 {
		return "", "", fmt.Errorf("AttributeError: reference and prediction must be str")
	}
	return r, p, nil
}

// Exact is exact(predictions, references).
var Exact = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	r, p, err := first(refs, preds)
	if err != nil {
		return nil, err
	}
	return French.Exact(r, p), nil
})

// F1 is f1(predictions, references).
var F1 = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	r, p, err := first(refs, preds)
	if err != nil {
		return nil, err
	}
	return French.F1(r, p), nil
})

// IsIncluded is is_included(items), called (TypeError path) with [gold,
// result]: whether the gold answer occurs in the result.
var IsIncluded = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	r, p, err := first(refs, preds)
	if err != nil {
		return nil, err
	}
	return strings.Contains(p, r), nil
})

// WikitextDetokenizer is preprocess_wikitext.wikitext_detokenizer of the
// "paragraph" column.
func WikitextDetokenizer(doc task.Doc) (any, error) {
	p, err := pyfn.Str(doc, "paragraph")
	if err != nil {
		return nil, err
	}
	return wikitext.Detokenize(p), nil
}

// WikitextProcessResults is preprocess_wikitext.process_results: the
// rolling log-likelihood with the paragraph's word and byte counts.
func WikitextProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	p, err := pyfn.Str(doc, "paragraph")
	if err != nil {
		return nil, err
	}
	if len(results) != 1 {
		return nil, fmt.Errorf("ValueError: %d results, want 1", len(results))
	}
	ll, err := pydoc.LogLik(results[0])
	if err != nil {
		return nil, err
	}
	words, bytes := wikitext.Counts(p)
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(words)},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
	}, nil
}

func init() {

	const f = "french_bench/utils.py"
	task.RegisterMetric(task.Helper{File: f, Function: "exact", SHA256: "bc0f31759dba2e87890c98cb22351ba1929ea811a6bc509da6e047e9f8328fdd"}, Exact)
	task.RegisterMetric(task.Helper{File: f, Function: "f1", SHA256: "754fb311248909d4dc2e42aa4c6656b9f4dd03ea6f8a01b921f2d300138dd6ad"}, F1)
	task.RegisterMetric(task.Helper{File: f, Function: "is_included", SHA256: "6b3ced28676f5d43017c391052bf039130697f4cff5253fac1e50cf8f99ff21f"}, IsIncluded)
	const w = "french_bench/preprocess_wikitext.py"
	task.RegisterDocFunc(task.Helper{File: w, Function: "wikitext_detokenizer", SHA256: "1e21dc38acec55e48d750e757a849170ed6bed6f3a73d77e2de5ab989256ec22"}, WikitextDetokenizer)
	task.RegisterProcessResults(task.Helper{File: w, Function: "process_results", SHA256: "eadbf5915cfef1a9173f8b42f084bb160c9733500db29c7a0670fe3eb61b2691"}, WikitextProcessResults)
}
