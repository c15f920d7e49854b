package mbpp

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcPassAt1            = task.Helper{File: "mbpp/utils.py", Function: "pass_at_1", SHA256: "a71e2fe1ded7a14665aa2eb946df748fcc7e6f7ccd5cc3c19118fa5f8676aacd"}
	srcBuildPredictions   = task.Helper{File: "mbpp/utils.py", Function: "build_predictions", SHA256: "43b0afd5168093f1353085d91f121b1f9dece791250c1a4456d069db1bf8a4e5"}
	srcListFewshotSamples = task.Helper{File: "mbpp/utils.py", Function: "list_fewshot_samples", SHA256: "c04637d3eb11b4a9d56435bd54c23ed2c319b71dc46811099101808aeb3805d1"}
)

// Sources are the lm-eval functions this package reproduces.
var Sources = []task.Helper{
	srcPassAt1,
	{File: "mbpp/utils.py", Function: "extract_code_blocks", SHA256: "956a47eb03085d570e9f654cd57e56bda3d9fee3841200b5fb46c3f3896fcc74"},
	srcBuildPredictions,
	srcListFewshotSamples,
}

func init() {
	task.RegisterMetric(srcPassAt1, passAt1Metric)
	task.RegisterFilterFunc(srcBuildPredictions, filters.ListFunc(BuildPredictions))
	task.RegisterSamples(srcListFewshotSamples, ListFewshotSamples)
}

// passAt1Metric calls PassAt1 as lm-eval's process_results calls
// utils.pass_at_1: references=[gold] and predictions=[result], where a
// result is one program (no filter: take_first) or a list of them (the
// instruct variants' build_predictions); a string becomes [string].
func passAt1Metric(ctx context.Context, references, predictions []any, _ map[string]any) (any, error) {
	refs := make([]string, len(references))
	for i, r := range references {
		s, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("pass_at_1: reference %d is %T, want a string", i, r)
		}
		refs[i] = s
	}
	preds := make([][]string, len(predictions))
	for i, p := range predictions {
		switch x := p.(type) {
		case string:
			preds[i] = []string{x}
		case []any:
			for j, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("pass_at_1: prediction %d, program %d is %T, want a string", i, j, e)
				}
				preds[i] = append(preds[i], s)
			}
		default:
			return nil, fmt.Errorf("pass_at_1: prediction %d is %T, want a program or a list of programs", i, p)
		}
	}
	return PassAt1(ctx, refs, preds)
}
