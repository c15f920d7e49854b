package codeexec

import (
	"context"
	"fmt"
	"strconv"
)

// EstimatePassAtK is code_eval's unbiased pass@k estimator for one
// problem with n samples of which c are correct: 1 - C(n-c, k)/C(n, k),
// computed as 1 - prod(1 - k/i for i in n-c+1..n), 1 when n-c < k.
func EstimatePassAtK(n, c, k int) float64 {
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// PassAtK is code_eval's compute: each candidate of problem i, followed
// by a newline and references[i], is one program; the result maps
// "pass@K" to the mean estimate over problems, for each K in ks that
// every problem has at least K candidates for (as code_eval, others are
// left out). results holds the verdicts per problem and candidate.
func (r *Runner) PassAtK(ctx context.Context, references []string, predictions [][]string, ks []int) (score map[string]float64, results [][]Result, err error) {
	if len(references) != len(predictions) {
		return nil, nil, fmt.Errorf("code_eval: %d references for %d lists of predictions", len(references), len(predictions))
	}
	var programs []string
	for i, cands := range predictions {
		for _, c := range cands {
			programs = append(programs, c+"\n"+references[i])
		}
	}
	flat, err := r.RunAll(ctx, programs)
	if err != nil {
		return nil, nil, err
	}
	results = make([][]Result, len(predictions))
	total := make([]int, len(predictions))
	correct := make([]int, len(predictions))
	j := 0
	for i, cands := range predictions {
		results[i] = flat[j : j+len(cands)]
		j += len(cands)
		total[i] = len(cands)
		for _, res := range results[i] {
			if res.Passed {
				correct[i]++
			}
		}
	}
	score = map[string]float64{}
	for _, k := range ks {
		all := true
		for _, n := range total {
			if n < k {
				all = false
			}
		}
		if !all {
			continue
		}
		sum := 0.0
		for i := range total {
			sum += EstimatePassAtK(total[i], correct[i], k)
		}
		// numpy's mean of an empty array is nan.
		score["pass@"+strconv.Itoa(k)] = sum / float64(len(total))
	}
	return score, results, nil
}
