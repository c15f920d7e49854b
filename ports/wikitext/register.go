// Package wikitext ports lm-eval's wikitext/preprocess_wikitext.py: the
// detokenizer and the perplexity process_results.
package wikitext

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

func init() {

	task.RegisterDocFunc(task.Helper{File: "wikitext/preprocess_wikitext.py", Function: "wikitext_detokenizer", SHA256: "c7a7e3cfdf6468e4787baeb3d75c2afed1891524d9676c80b72685096e532369"}, func(d task.Doc) (any, error) { return DocToTarget(d) })
	task.RegisterProcessResults(task.Helper{File: "wikitext/preprocess_wikitext.py", Function: "process_results", SHA256: "dac9bafd14a8d0d6c39e3c8e5070b0d9cceab954e2ced3911f33a15d5409c877"}, ProcessResults)
}

// ProcessResults is preprocess_wikitext.process_results: the rolling
// log-likelihood paired with the word and byte counts of the page before
// detokenisation. Each value is a metrics.Weighted (lm-eval's
// (loglikelihood, count) tuple) for the weighted_perplexity and
// bits_per_byte aggregations.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	page, err := pydoc.GetStr(doc, "page")
	if err != nil {
		return nil, fmt.Errorf("wikitext process_results: %w", err)
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("wikitext process_results: no results")
	}
	ll, err := pydoc.LogLik(results[0])
	if err != nil {
		return nil, fmt.Errorf("wikitext process_results: %w", err)
	}
	words, bytes := Counts(page)
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(words)},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
	}, nil
}
