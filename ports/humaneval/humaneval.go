// Package humaneval ports lm-eval's humaneval/utils.py (tasks humaneval,
// humaneval_64, humaneval_instruct, humaneval_64_instruct,
// humaneval_plus): the filters that complete each response into a
// program, and pass@k, which runs the programs (see internal/codeexec).
package humaneval

import (
	"context"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/internal/codeexec"
)

// BuildPredictions is utils.build_predictions: each response appended to
// its document's prompt.
func BuildPredictions(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, func(r string) string { return r })
}

// BuildPredictionsInstruct is utils.build_predictions_instruct: as
// BuildPredictions, each response first cut at its first "```".
func BuildPredictionsInstruct(resps [][]string, docs []map[string]any) ([][]string, error) {
	return build(resps, docs, func(r string) string {
		if i := strings.Index(r, "```"); i >= 0 {
			return r[:i]
		}
		return r
	})
}

func build(resps [][]string, docs []map[string]any, cut func(string) string) ([][]string, error) {
	// zip stops at the shorter list.
	n := min(len(resps), len(docs))
	out := make([][]string, n)
	for i := 0; i < n; i++ {
		prompt, ok := docs[i]["prompt"].(string)
		if !ok {
			return nil, fmt.Errorf("document %d: prompt is %T, want a string", i, docs[i]["prompt"])
		}
		out[i] = make([]string, len(resps[i]))
		for j, r := range resps[i] {
			out[i][j] = prompt + cut(r)
		}
	}
	return out, nil
}

// Runner runs the programs of PassAtK; its zero value is code_eval's
// settings (3 s per program, 4 at a time) with lmeval's memory limit.
var Runner = &codeexec.Runner{}

// PassAtK is utils.pass_at_k: code_eval's pass@k for each k over the
// programs candidate + "\n" + reference, as a map "pass@K" → value
// (code_eval's first result).
func PassAtK(ctx context.Context, references []string, predictions [][]string, k []int) (map[string]float64, error) {
	if k == nil {
		return nil, fmt.Errorf("pass_at_k: k is required")
	}
	score, _, err := Runner.PassAtK(ctx, references, predictions, k)
	if err != nil {
		return nil, fmt.Errorf("pass_at_k: %w", err)
	}
	return score, nil
}
