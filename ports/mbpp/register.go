package mbpp

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// Source is one ported Python function: its file relative to
// lm_eval/tasks/, its name, and the sha256 of its source text
// (ast.get_source_segment, UTF-8) as testdata/gen.py computes it.
type Source = pysource.Source

// Sources are the lm-eval functions this package reproduces.
var Sources = []Source{
	{File: "mbpp/utils.py", Func: "pass_at_1", SHA256: "a71e2fe1ded7a14665aa2eb946df748fcc7e6f7ccd5cc3c19118fa5f8676aacd"},
	{File: "mbpp/utils.py", Func: "extract_code_blocks", SHA256: "956a47eb03085d570e9f654cd57e56bda3d9fee3841200b5fb46c3f3896fcc74"},
	{File: "mbpp/utils.py", Func: "build_predictions", SHA256: "43b0afd5168093f1353085d91f121b1f9dece791250c1a4456d069db1bf8a4e5"},
	{File: "mbpp/utils.py", Func: "list_fewshot_samples", SHA256: "c04637d3eb11b4a9d56435bd54c23ed2c319b71dc46811099101808aeb3805d1"},
}

func init() {
	pysource.Register(Sources, "mbpp/utils.py", []task.Helper{
		{Function: "pass_at_1", Fn: task.MetricFunc(passAt1Metric)},
		{Function: "build_predictions", Fn: filters.ListFunc(BuildPredictions)},
		{Function: "list_fewshot_samples", Fn: task.SamplesFunc(ListFewshotSamples)},
	})
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
