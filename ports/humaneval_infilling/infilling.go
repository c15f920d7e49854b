// Package humaneval_infilling ports lm-eval's humaneval_infilling/utils.py
// (tasks humaneval_single_line_infilling, humaneval_multi_line_infilling,
// humaneval_random_span_infilling, humaneval_random_span_infilling_light,
// group humaneval_infilling): the filter that puts each completion between
// the document's prompt and suffix. Its pass_at_k is humaneval's, the same
// Python source, and is served by ports/humaneval.
package humaneval_infilling

import "fmt"

// BuildPredictions is utils.build_predictions: prompt + response + suffix
// for every response of every document.
func BuildPredictions(resps [][]string, docs []map[string]any) ([][]string, error) {
	n := min(len(resps), len(docs)) // zip
	out := make([][]string, n)
	for i := 0; i < n; i++ {
		prompt, ok := docs[i]["prompt"].(string)
		if !ok {
			return nil, fmt.Errorf("document %d: prompt is %T, want a string", i, docs[i]["prompt"])
		}
		suffix, ok := docs[i]["suffix"].(string)
		if !ok {
			return nil, fmt.Errorf("document %d: suffix is %T, want a string", i, docs[i]["suffix"])
		}
		out[i] = make([]string, len(resps[i]))
		for j, r := range resps[i] {
			out[i][j] = prompt + r + suffix
		}
	}
	return out, nil
}
