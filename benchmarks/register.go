package benchmarks

import (
	"fmt"
	"math"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// The native ports are registered under the lm-eval file and function
// they reproduce, with the sha256 of that function's Python source
// (scripts/pyhelpers/sha.py), so both the embedded YAML and lm-eval's task
// tree (--include_path) resolve them, and a changed source is reported.
func init() {
	port := func(file, fn, sha string, f any) {
		task.RegisterHelper(task.Helper{File: file, Function: fn, SHA256: sha, Fn: f})
	}
	port("hellaswag/utils.py", "process_docs", "6e0be8de844d15018a3506cf91436fe29c4d7eb093c6f214224018493c2dfca7",
		task.MapDocs{Fn: HellaswagProcessDocs, Columns: HellaswagColumns})
	// lmeval's own: its built-in hellaswag.yaml lists the endings through
	// it (lm-eval's YAML uses the template "{{choices}}").
	task.RegisterFunction("hellaswag", "utils.doc_to_choice", task.DocFunc(func(d task.Doc) (any, error) {
		return HellaswagDocToChoice(d)
	}))

	port("winogrande/preprocess_winogrande.py", "doc_to_text", "209f98ca866ca43ff7ed1eb1b4ae1bbfe93badd69ae9709f78228eaab625d0f6",
		task.DocFunc(func(d task.Doc) (any, error) { return WinograndeDocToText(d) }))
	port("winogrande/preprocess_winogrande.py", "doc_to_target", "e7f36e60b06fe5fbd1ed46cfc385c0818ece301b12c4b41251b06160aefaed6d",
		task.DocFunc(func(d task.Doc) (any, error) { return WinograndeDocToTarget(d) }))
	port("winogrande/preprocess_winogrande.py", "doc_to_choice", "c539fb65f429ca017a0384af755ac662b7b875018b9032934446f34fea44eb16",
		task.DocFunc(func(d task.Doc) (any, error) { return WinograndeDocToChoice(d) }))

	port("wikitext/preprocess_wikitext.py", "wikitext_detokenizer", "c7a7e3cfdf6468e4787baeb3d75c2afed1891524d9676c80b72685096e532369",
		task.DocFunc(func(d task.Doc) (any, error) { return WikitextDocToTarget(d) }))
	port("wikitext/preprocess_wikitext.py", "process_results", "dac9bafd14a8d0d6c39e3c8e5070b0d9cceab954e2ced3911f33a15d5409c877",
		task.ProcessResultsFunc(WikitextProcessResults))

	port("truthfulqa/utils.py", "process_results_mc2", "8db42f02270d1bb3282a66cc2a1a1a63ca7ddbf450e4fe71a07847fe7fed3b26",
		task.ProcessResultsFunc(TruthfulQAProcessResultsMC2))
	port("truthfulqa/utils.py", "process_docs_gen", "b5c5ca3e9df8e0515a18653e267a91d6ad1e4770c0eb2ead089aff553ae32b82",
		task.ProcessDocsFunc(TruthfulQAProcessDocsGen))
	port("truthfulqa/utils.py", "process_results_gen", "9aa9c0b6e2453fd08860d8245e40a231557193c196688799d3830a8b76101995",
		task.ProcessResultsFunc(TruthfulQAProcessResultsGen))
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
// log-likelihoods of the document's mc2 choices (TruthfulQAMC2Masked).
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
	acc, err := TruthfulQAMC2Masked(lls, labels)
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
