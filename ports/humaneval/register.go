package humaneval

import (
	"context"
	"fmt"
	"strconv"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcBuildPredictions         = task.Helper{File: "humaneval/utils.py", Function: "build_predictions", SHA256: "0ea53cd7e07642ad8d6816ec4e86c68b4a28846d6c0b2abea1585b64a6a00f0d"}
	srcBuildPredictionsInstruct = task.Helper{File: "humaneval/utils.py", Function: "build_predictions_instruct", SHA256: "dd781f6f2d0ae6397498d4e1ea2d9dcfce85f9f8385326cfd798b855bc85116d"}
	srcPassAtK                  = task.Helper{File: "humaneval/utils.py", Function: "pass_at_k", SHA256: "50ced366a9c95645899dd3c6fba919f9f9c2f408e5e428a3b2b4832ed3d2d859"}
)

// Sources are the lm-eval functions this package reproduces.
var Sources = []task.Helper{
	srcBuildPredictions,
	srcBuildPredictionsInstruct,
	srcPassAtK,
}

func init() {
	// pass_at_k's source is the same in humaneval_infilling/utils.py: this
	// registration serves both.
	task.RegisterFilterFunc(srcBuildPredictions, filters.ListFunc(BuildPredictions))
	task.RegisterFilterFunc(srcBuildPredictionsInstruct, filters.ListFunc(BuildPredictionsInstruct))
	task.RegisterMetric(srcPassAtK, PassAtKMetric)
}

// PassAtKMetric is the utils.pass_at_k metric hook: it calls PassAtK as
// lm-eval's process_results calls utils.pass_at_k: references=[gold], predictions=[programs], k from the
// metric_list entry (an int or a list); the dict comes back in k's order.
func PassAtKMetric(ctx context.Context, references, predictions []any, kwargs map[string]any) (any, error) {
	ks, err := intList(kwargs["k"])
	if err != nil {
		return nil, fmt.Errorf("pass_at_k: k: %w", err)
	}
	refs := make([]string, len(references))
	for i, r := range references {
		s, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("pass_at_k: reference %d is %T, want a string", i, r)
		}
		refs[i] = s
	}
	preds := make([][]string, len(predictions))
	for i, p := range predictions {
		l, ok := p.([]any)
		if !ok {
			return nil, fmt.Errorf("pass_at_k: prediction %d is %T, want a list of programs (filter utils.build_predictions)", i, p)
		}
		for j, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("pass_at_k: prediction %d, program %d is %T, want a string", i, j, e)
			}
			preds[i] = append(preds[i], s)
		}
	}
	score, err := PassAtK(ctx, refs, preds, ks)
	if err != nil {
		return nil, err
	}
	var out metrics.Values
	for _, k := range ks {
		name := "pass@" + strconv.Itoa(k)
		if v, ok := score[name]; ok {
			out = append(out, metrics.NamedValue{Name: name, Value: v})
		}
	}
	return out, nil
}

// intList reads k: an int, or a list of ints.
func intList(v any) ([]int, error) {
	switch x := v.(type) {
	case nil:
		return nil, fmt.Errorf("missing")
	case int:
		return []int{x}, nil
	case int64:
		return []int{int(x)}, nil
	case []any:
		out := make([]int, len(x))
		for i, e := range x {
			l, err := intList(e)
			if err != nil || len(l) != 1 {
				return nil, fmt.Errorf("element %d is %v, want an integer", i, e)
			}
			out[i] = l[0]
		}
		return out, nil
	}
	return nil, fmt.Errorf("%v (%T), want an integer or a list of integers", v, v)
}
