// Package medical holds what the ports of lm-eval's medical generation
// tasks share (meddialog, mediqa_qa2019, medtext, meqsum, mimic_repsum,
// mts_dialog, olaph): the perplexity variants' process_results, and why
// their generation variants cannot run here.
package medical

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

// BLEURTBERTScore names the neural metrics of the generation variants'
// process_results (with BLEU and ROUGE).
const BLEURTBERTScore = "BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore)"

// Unavailable is why a generation variant's process_results cannot run
// (task.RegisterUnavailable): it scores each answer with neural metrics
// whose checkpoints lmeval cannot run. perplexity names the task's
// loglikelihood_rolling variant, which runs ("" when there is none).
func Unavailable(neural, perplexity string) string {
	r := "it scores generations with " + neural + ", neural metrics whose model checkpoints lmeval cannot run"
	if perplexity != "" {
		r += "; " + perplexity + " (its perplexity variant) runs"
	}
	return r
}

// Perplexity is the utils_perplexity process_results: `(loglikelihood,) =
// results`, and the word and byte counts of target (len(re.split(r"\s+",
// target)), its UTF-8 length) weighting word_perplexity, byte_perplexity
// and bits_per_byte.
func Perplexity(results []any, target any) (map[string]any, error) {
	if len(results) != 1 {
		return nil, fmt.Errorf("ValueError: %d results, want 1 (one rolling log-likelihood)", len(results))
	}
	ll, err := pydoc.LogLik(results[0])
	if err != nil {
		return nil, err
	}
	s, ok := target.(string)
	if !ok {
		return nil, fmt.Errorf("TypeError: expected string or bytes-like object, got '%s' (the target)", pydoc.TypeName(target))
	}
	words := float64(metrics.CountWords(s))
	bytes := float64(len(s))
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: words},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: bytes},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: bytes},
	}, nil
}

// Field is a DocFunc returning doc[keys...] as it is.
func Field(keys ...any) task.DocFunc {
	return func(doc task.Doc) (any, error) { return pydoc.Path(doc, keys...) }
}

// PerplexityOf is a process_results port of utils_perplexity's, the
// target given by target (the module's doc_to_target).
func PerplexityOf(target task.DocFunc) task.ProcessResultsFunc {
	return func(doc task.Doc, results []any) (map[string]any, error) {
		t, err := target(doc)
		if err != nil {
			return nil, err
		}
		return Perplexity(results, t)
	}
}
