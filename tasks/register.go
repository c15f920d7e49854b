package tasks

import (
	"fmt"
	"math"

	"lmeval/harness/metrics"
	"lmeval/harness/model"
	"lmeval/harness/task"
)

// The native functions are registered under the directory and the
// `!function` name lm-eval's YAML uses, so both the embedded YAML and a
// copy of lm-eval's task folders (--include_path) resolve them.
func init() {
	task.RegisterFunction("hellaswag", "utils.process_docs", task.MapDocs{Fn: HellaswagProcessDocs, Columns: HellaswagColumns})
	task.RegisterFunction("hellaswag", "utils.doc_to_choice", task.DocFunc(func(d task.Doc) (any, error) {
		return HellaswagDocToChoice(d)
	}))

	task.RegisterFunction("winogrande", "preprocess_winogrande.doc_to_text", task.DocFunc(func(d task.Doc) (any, error) {
		return WinograndeDocToText(d)
	}))
	task.RegisterFunction("winogrande", "preprocess_winogrande.doc_to_target", task.DocFunc(func(d task.Doc) (any, error) {
		return WinograndeDocToTarget(d)
	}))
	task.RegisterFunction("winogrande", "preprocess_winogrande.doc_to_choice", task.DocFunc(func(d task.Doc) (any, error) {
		return WinograndeDocToChoice(d)
	}))

	task.RegisterFunction("wikitext", "preprocess_wikitext.wikitext_detokenizer", task.DocFunc(func(d task.Doc) (any, error) {
		return WikitextDocToTarget(d)
	}))
	task.RegisterFunction("wikitext", "preprocess_wikitext.process_results", task.ProcessResultsFunc(WikitextProcessResults))

	task.RegisterFunction("truthfulqa", "utils.process_results_mc2", task.ProcessResultsFunc(TruthfulQAProcessResultsMC2))
	task.RegisterFunction("truthfulqa", "utils.process_docs_gen", task.ProcessDocsFunc(TruthfulQAProcessDocsGen))
	task.RegisterFunction("truthfulqa", "utils.process_results_gen", task.ProcessResultsFunc(TruthfulQAProcessResultsGen))
}

// WikitextProcessResults is preprocess_wikitext.process_results: the
// rolling log-likelihood paired with the word and byte counts of the page
// before detokenisation. Each value is a metrics.Weighted (lm-eval's
// (loglikelihood, count) tuple) for the weighted_perplexity and
// bits_per_byte aggregations.
func WikitextProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	page, err := docString(doc, "page")
	if err != nil {
		return nil, fmt.Errorf("wikitext process_results: %w", err)
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("wikitext process_results: no results")
	}
	ll, err := logLikelihood(results[0])
	if err != nil {
		return nil, fmt.Errorf("wikitext process_results: %w", err)
	}
	words, bytes := WikitextCounts(page)
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(words)},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
	}, nil
}

// TruthfulQAProcessResultsMC2 is truthfulqa/utils.py process_results_mc2:
// {"acc": the normalised probability mass of the true answers}, from the
// log-likelihoods of the document's mc2 choices.
func TruthfulQAProcessResultsMC2(doc task.Doc, results []any) (map[string]any, error) {
	labels, err := truthfulqaLabels(doc)
	if err != nil {
		return nil, fmt.Errorf("truthfulqa process_results_mc2: %w", err)
	}
	lls := make([]float64, len(results))
	for i, r := range results {
		if lls[i], err = logLikelihood(r); err != nil {
			return nil, fmt.Errorf("truthfulqa process_results_mc2: result %d: %w", i, err)
		}
	}
	acc, err := TruthfulQAMC2(lls, labels)
	if err != nil {
		return nil, err
	}
	return map[string]any{"acc": acc}, nil
}

// logLikelihood takes the log-probability out of one request's result.
func logLikelihood(r any) (float64, error) {
	switch x := r.(type) {
	case model.LoglikelihoodResult:
		return x.LogProb, nil
	case *model.LoglikelihoodResult:
		return x.LogProb, nil
	case model.RollingResult:
		return x.LogProb, nil
	case *model.RollingResult:
		return x.LogProb, nil
	case float64:
		return x, nil
	}
	return math.NaN(), fmt.Errorf("result is %T, want a log-likelihood", r)
}
