// Package careqa ports lm_eval/tasks/careqa's helpers: utils.py's
// doc_to_text (medmcqa's prompt over op1-op4, with a stand-in document for
// the one question the dataset lacks) and doc_to_target (cop - 1);
// utils_open.py's doc_to_text and doc_to_target (the question and the
// answer); and utils_perplexity.py's process_results (the rolling
// log-likelihood with the answer's word and byte counts).
//
// utils_open.py's process_results_gen scores with BLEURT and BERTScore,
// which need model checkpoints: it is left unavailable.
package careqa

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/medmcqa"
	"github.com/lmeval/lmeval/python/pyre"
)

// fallback is the document utils.py's doc_to_text uses when the question
// is None.
var fallback = task.Doc{
	"question":  "In relation to the immune mechanism involved in the rejection of transplanted solid organs, indicate the incorrect answer:",
	"op1":       "Acute T-cell mediated rejection can be controlled through the use of drugs such as cyclosporine A or corticosteroids.",
	"exam_id":   int64(36),
	"op3":       "Chronic rejection or chronic graft injury is associated with endothelial damage mediated by anti-HLA antibodies.",
	"category":  "Medicine",
	"unique_id": "5636d1af-e0b1-43b0-8a04-6f127dcf6785",
	"op4":       "Hyperacute rejection is mediated by cytotoxic T lymphocytes against donor antigens present in the recipient.",
	"op2":       "The presence of specific antibodies against the donor (DSA) in the recipient prior to transplantation is a contraindication for it.",
	"cop":       int64(4),
	"year":      int64(2024),
}

// DocToText is utils.py's doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	if q == nil {
		doc = fallback
	}
	opts := make([]any, 4)
	for i, k := range []string{"op1", "op2", "op3", "op4"} {
		if opts[i], err = pydoc.Field(doc, k); err != nil {
			return nil, err
		}
	}
	s, err := pydoc.String(doc, "question")
	if err != nil {
		return nil, err
	}
	return medmcqa.QuestionChoices(s, opts), nil
}

// DocToTarget is utils.py's doc_to_target: doc["cop"] - 1.
func DocToTarget(doc task.Doc) (any, error) {
	v, err := pydoc.Field(doc, "cop")
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case int64:
		return x - 1, nil
	case int:
		return int64(x) - 1, nil
	case float64:
		return x - 1, nil
	case bool:
		if x {
			return int64(0), nil
		}
		return int64(-1), nil
	}
	return nil, fmt.Errorf("TypeError: unsupported operand type(s) for -: '%s' and 'int'", pydoc.TypeName(v))
}

// OpenDocToText is utils_open.py's doc_to_text: doc["question"].
func OpenDocToText(doc task.Doc) (any, error) { return pydoc.Field(doc, "question") }

// OpenDocToTarget is utils_open.py's (and utils_perplexity.py's)
// doc_to_target: doc["answer"].
func OpenDocToTarget(doc task.Doc) (any, error) { return pydoc.Field(doc, "answer") }

var whitespace = pyre.MustCompile(`\s+`)

// PerplexityProcessResults is utils_perplexity.py's process_results:
// (loglikelihood, words) for word_perplexity and (loglikelihood, bytes)
// for byte_perplexity and bits_per_byte, where words is
// len(re.split(r"\s+", answer)) and bytes the answer's UTF-8 length.
// The function prints math.exp(-loglikelihood / words) first, which
// raises OverflowError past exp(709.78): that error is kept.
func PerplexityProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) != 1 {
		return nil, fmt.Errorf("careqa process_results: ValueError: %d results, want 1", len(results))
	}
	var ll float64
	switch r := results[0].(type) {
	case model.RollingResult:
		ll = r.LogProb
	case *model.RollingResult:
		ll = r.LogProb
	case model.LoglikelihoodResult:
		ll = r.LogProb
	case float64:
		ll = r
	default:
		return nil, fmt.Errorf("careqa process_results: result is %T, want a log-likelihood", results[0])
	}
	answer, err := pydoc.String(doc, "answer")
	if err != nil {
		return nil, fmt.Errorf("careqa process_results: %w", err)
	}
	words := len(whitespace.FindAll(answer)) + 1
	bytes := len(answer)
	if !utf8.ValidString(answer) {
		return nil, fmt.Errorf("careqa process_results: answer is not valid UTF-8")
	}
	if math.IsInf(math.Exp(-ll/float64(words)), 1) && !math.IsInf(ll, -1) {
		return nil, fmt.Errorf("careqa process_results: OverflowError: math range error (lm-eval's print of math.exp(-loglikelihood / words), loglikelihood %v, %d words)", ll, words)
	}
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(words)},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: float64(bytes)},
	}, nil
}
