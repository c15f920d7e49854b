// Package ruler ports lm_eval/tasks/ruler/common_utils.py's scoring
// (string_match_all / string_match_part per context length, and their
// aggregation) and says why RULER's tasks stay unavailable: their
// documents are synthesized when the task is built, sized with the
// model's Hugging Face tokenizer, from word lists and texts lmeval does
// not have offline.
package ruler

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// DefaultSeqLengths is DEFAULT_SEQ_LENGTHS.
var DefaultSeqLengths = []int{4096}

var nonPrintable = regexp.MustCompile(`[\x00-\x1f]`)

// PostprocessPred is postprocess_pred.
func PostprocessPred(preds []string) []string {
	out := make([]string, len(preds))
	for i, p := range preds {
		out[i] = pyre.Strip(nonPrintable.ReplaceAllString(pyre.Strip(p), "\n"))
	}
	return out
}

// matches is each prediction's share of its references it contains
// (ignoring case).
func matches(preds []string, refs [][]string) ([]float64, error) {
	n := min(len(preds), len(refs))
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		if len(refs[i]) == 0 {
			return nil, fmt.Errorf("ruler: no outputs (ZeroDivisionError)")
		}
		s := 0.0
		for _, r := range refs[i] {
			if strings.Contains(pyre.Lower(preds[i]), pyre.Lower(r)) {
				s += 1.0
			}
		}
		out[i] = s / float64(len(refs[i]))
	}
	return out, nil
}

// StringMatchAll is string_match_all.
func StringMatchAll(preds []string, refs [][]string) (float64, error) {
	ms, err := matches(preds, refs)
	if err != nil {
		return 0, err
	}
	s := 0.0
	for _, m := range ms {
		s += m
	}
	if len(preds) == 0 {
		return 0, fmt.Errorf("ruler: no prediction (ZeroDivisionError)")
	}
	return s / float64(len(preds)), nil
}

// StringMatchPart is string_match_part.
func StringMatchPart(preds []string, refs [][]string) (float64, error) {
	ms, err := matches(preds, refs)
	if err != nil {
		return 0, err
	}
	if len(ms) == 0 {
		return 0, fmt.Errorf("ruler: max() arg is an empty sequence (ValueError)")
	}
	best := ms[0]
	for _, m := range ms[1:] {
		best = max(best, m)
	}
	return best / float64(len(preds)), nil
}

func processResults(match func([]string, [][]string) (float64, error)) task.ProcessResultsFunc {
	return func(doc task.Doc, results []any) (map[string]any, error) {
		out := map[string]any{}
		for _, l := range DefaultSeqLengths {
			out[fmt.Sprint(l)] = -1.0
		}
		length, ok := doc["max_length"]
		if !ok {
			return nil, fmt.Errorf("ruler: no max_length (KeyError)")
		}
		preds := make([]string, len(results))
		for i, r := range results {
			s, ok := r.(string)
			if !ok {
				return nil, fmt.Errorf("ruler: result %d is %T, want a generated string", i, r)
			}
			preds[i] = s
		}
		l, ok := doc["outputs"].([]any)
		if !ok {
			return nil, fmt.Errorf("ruler: outputs is %T, want a list", doc["outputs"])
		}
		ref := make([]string, len(l))
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("ruler: outputs[%d] is %T (AttributeError: lower)", i, e)
			}
			ref[i] = s
		}
		score, err := match(PostprocessPred(preds), [][]string{ref})
		if err != nil {
			return nil, err
		}
		out[pyval.Str(length)] = score
		return out, nil
	}
}

// AggregateMetrics is aggregate_metrics: the mean of the values other
// than -1 (the documents of other lengths), -1 when there are none.
var AggregateMetrics = &metrics.Aggregation{Name: "ruler:aggregate_metrics", Fn: func(items []any) (float64, error) {
	s, n := 0.0, 0
	for i, v := range items {
		f, err := metrics.Float(v)
		if err != nil {
			return 0, fmt.Errorf("aggregate_metrics: value %d: %w", i, err)
		}
		if f != -1 {
			s += f
			n++
		}
	}
	if n == 0 {
		return -1, nil
	}
	return s / float64(n), nil
}}

const (
	synthesized = "synthesizes RULER's documents when the task is built, sizing every prompt to the context length " +
		"with the model's Hugging Face tokenizer (transformers AutoTokenizer), which lmeval does not have " +
		"(a GGUF model's own tokenizer need not count tokens the same way, and the haystacks would differ)"
	wonderwords = ", with needle words from the wonderwords package's word lists and nltk's punkt_tab data, which lmeval does not include"
	essays      = ", over Paul Graham's essays downloaded from the web at run time"
)

func init() {
	metrics.RegisterAggregation(AggregateMetrics)
	task.RegisterProcessResults(task.Helper{File: "ruler/common_utils.py", Function: "process_results", SHA256: "783c7c9e0d0e2e1b7bb5e5bf2f54324d5ec06d489fdc0e3c280993dd9a81b4dc"}, processResults(StringMatchAll))
	task.RegisterProcessResults(task.Helper{File: "ruler/common_utils.py", Function: "process_results_part", SHA256: "c6f947e4c4689b04e993a61b47b9b4722a7a8247827cc5849446e4ef0fbcb714"}, processResults(StringMatchPart))
	task.RegisterAggregation(task.Helper{File: "ruler/common_utils.py", Function: "aggregate_metrics", SHA256: "d77dbfc57097fc94322d77c3f5f790fd863b1bfe6e3cfa734b139ffb3753a0d5"}, AggregateMetrics)
	for _, h := range []struct{ file, fn, sha, why string }{
		{"niah_utils.py", "niah_single_1", "be3e796619733ee08a32f08f597c749c7268a1ce3a86594696940252d602819d", synthesized + wonderwords},
		{"niah_utils.py", "niah_single_2", "2bae2f16b567a9194aca1377d438529981c30a9aaff5fa80b966d34230c93b2e", synthesized + wonderwords + essays},
		{"niah_utils.py", "niah_single_3", "f2bda1803fa7bd5b25ded3323bc24f77f1ddebd8c01e7cb762e7295190fba96d", synthesized + wonderwords + essays},
		{"niah_utils.py", "niah_multikey_1", "e4921531931bf8df69bb57c6a106acf5efd4a7d15f1cdeb69cd1a34b7fdacd43", synthesized + wonderwords + essays},
		{"niah_utils.py", "niah_multikey_2", "ba74b98b68e4b2237f8c2da7fc6f54da7531c4f8f75a05da18cccc9a9ea2bd33", synthesized + wonderwords},
		{"niah_utils.py", "niah_multikey_3", "ab02fd5de7d011b010b4706da09fa82cb31bdd352b790ee8a0d9934e4d36ea85", synthesized + wonderwords},
		{"niah_utils.py", "niah_multivalue", "494618fe5e720c9924ab52c102917d810f052687754d31ce25e02bb78e96938e", synthesized + wonderwords + essays},
		{"niah_utils.py", "niah_multiquery", "8c5710e7107752568f944cc1a5f54eaef5eb302054fa5b19f08ab78b158f4763", synthesized + wonderwords + essays},
		{"cwe_utils.py", "get_cw_dataset", "539f301deaa8e6f6b169d8f5aca257a688bbd46f8cdf44b502c661ef83b7d2b2", synthesized + ", with words from the wonderwords package's word lists, which lmeval does not include"},
		{"fwe_utils.py", "fwe_download", "d81644c402ab6fbc091dbe385f01797c477a2be55572580995435fc2c9346329", synthesized},
		{"qa_utils.py", "get_hotpotqa", "8e186406a0a3de3b184ad7fcd2ca34acf0649438b9d127ea1cbf1805006d1ba1", synthesized + ", from HotpotQA's JSON downloaded from the web at run time"},
		{"qa_utils.py", "get_squad", "2b25563c852a9d72c64b394ed8867ed634d1f8b6bff423b6fa4dffb620727e11", synthesized + ", from SQuAD's JSON downloaded from the web at run time"},
		{"vt_utils.py", "get_vt_dataset", "ae90a8efbbf1035026ec131a5d3da684082165a4979ac0a0885b37fce43eaaec", synthesized},
	} {
		task.RegisterUnavailable(task.Helper{File: "ruler/" + h.file, Function: h.fn, SHA256: h.sha}, h.why)
	}
}
