package cruxeval

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcPassAtK                   = task.Helper{File: "cruxeval/utils.py", Function: "pass_at_k", SHA256: "1e3b118c51fc61a359b4a02b6c1d2cfa6911bbbdaf64f1353e504350b39152b4"}
	srcBuildPredictionsInput     = task.Helper{File: "cruxeval/utils.py", Function: "build_predictions_input", SHA256: "74ffea0843b2ef523c3daee44ead348b41ed9048213ff0f521b6e0d28579d66b"}
	srcBuildPredictionsInputCot  = task.Helper{File: "cruxeval/utils.py", Function: "build_predictions_input_cot", SHA256: "418ffe851ec6b72217845944e0b194a22c3c42086e2e9dee5ea5ed62c3578cdd"}
	srcBuildPredictionsOutput    = task.Helper{File: "cruxeval/utils.py", Function: "build_predictions_output", SHA256: "17b3fc21eb370dba2c7164c0356662cf0ec084eb39079de397a14cf89e7d748b"}
	srcBuildPredictionsOutputCot = task.Helper{File: "cruxeval/utils.py", Function: "build_predictions_output_cot", SHA256: "b68c6270122086e3277a5f49cad9f9c20e1c5734701637f553e7f221f04725a3"}
	srcListFewshotSamplesInput   = task.Helper{File: "cruxeval/utils.py", Function: "list_fewshot_samples_input", SHA256: "765f816cb57a553f9b1e580bc6240906f9354e8e7e61c55ee2219fad4251314e"}
	srcListFewshotSamplesOutput  = task.Helper{File: "cruxeval/utils.py", Function: "list_fewshot_samples_output", SHA256: "e4d2050aef99a082e72b467c9fcdcbb43fe864ce37c7fe65cee2ee2398a4658b"}
)

// Sources are the lm-eval functions this package reproduces: the file
// relative to lm_eval/tasks/, the function, and the sha256 of its source
// text (ast.get_source_segment, UTF-8) as testdata/gen.py computes it.
// The executor (check_correctness, unsafe_execute, reliability_guard,
// time_limit, swallow_io) is reproduced by internal/codeexec.
var Sources = []task.Helper{
	srcPassAtK,
	{File: "cruxeval/utils.py", Function: "_pass_at_k", SHA256: "e0d84fb21af10e7532df70ac5db6fa72441dabe1e798c13754ea9a3154e8192c"},
	{File: "cruxeval/utils.py", Function: "check_correctness", SHA256: "b9e889223cad752bdb33209d0fef9adf746460155b4cbc6fccfa39f227d951a8"},
	{File: "cruxeval/utils.py", Function: "unsafe_execute", SHA256: "bf5aca3b9a24017c2936a8ece1e4066ab1404429c30de43131e0742fc03df9f1"},
	{File: "cruxeval/utils.py", Function: "reliability_guard", SHA256: "708ea2aa446e70b2468b5a213148899fc889b672189b8dcb3750e5ea17323f32"},
	{File: "cruxeval/utils.py", Function: "time_limit", SHA256: "244d0ba9b1d33d0ef0b60e603a8fab2ea6fa2fea78dbee9156c47997877804cd"},
	{File: "cruxeval/utils.py", Function: "swallow_io", SHA256: "343aadbe00b7f80b6a574385c9acc89edc603067f9e6d88be26064412c84e1bb"},
	{File: "cruxeval/utils.py", Function: "extract_code_input", SHA256: "3f3286a2c9318f16f311315a3af825daff122e35663e23fc71d78b5419cda4e3"},
	{File: "cruxeval/utils.py", Function: "extract_code_output", SHA256: "987ce77c46b47752b8c4ed2b81ceb4bfd1ac79c7fb38660ac1c005179f9dadc9"},
	srcBuildPredictionsInput,
	srcBuildPredictionsInputCot,
	srcBuildPredictionsOutput,
	srcBuildPredictionsOutputCot,
	srcListFewshotSamplesInput,
	srcListFewshotSamplesOutput,
}

func init() {
	task.RegisterMetric(srcPassAtK, passAtKMetric)
	task.RegisterFilterFunc(srcBuildPredictionsInput, filters.ListFunc(BuildPredictionsInput))
	task.RegisterFilterFunc(srcBuildPredictionsInputCot, filters.ListFunc(BuildPredictionsInputCot))
	task.RegisterFilterFunc(srcBuildPredictionsOutput, filters.ListFunc(BuildPredictionsOutput))
	task.RegisterFilterFunc(srcBuildPredictionsOutputCot, filters.ListFunc(BuildPredictionsOutputCot))
	task.RegisterSamples(srcListFewshotSamplesInput, ListFewshotSamplesInput)
	task.RegisterSamples(srcListFewshotSamplesOutput, ListFewshotSamplesOutput)
}

// passAtKMetric calls PassAtK as lm-eval's process_results calls
// utils.pass_at_k (references=[gold], predictions=[programs], k from the
// metric_list entry); the dict comes back in k's order.
func passAtKMetric(ctx context.Context, _, predictions []any, kwargs map[string]any) (any, error) {
	ks := []int{1} // k=None means [1]
	switch k := kwargs["k"].(type) {
	case nil:
	case int:
		ks = []int{k}
	case []any:
		ks = ks[:0]
		for _, e := range k {
			n, ok := e.(int)
			if !ok {
				return nil, fmt.Errorf("pass_at_k: k element %v (%T), want an integer", e, e)
			}
			ks = append(ks, n)
		}
	default:
		return nil, fmt.Errorf("pass_at_k: k is %v (%T), want an integer or a list of integers", k, k)
	}
	preds := make([][]string, len(predictions))
	for i, p := range predictions {
		l, ok := p.([]any)
		if !ok {
			return nil, fmt.Errorf("pass_at_k: prediction %d is %T, want a list of programs (a build_predictions filter)", i, p)
		}
		for j, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("pass_at_k: prediction %d, program %d is %T, want a string", i, j, e)
			}
			preds[i] = append(preds[i], s)
		}
	}
	score, err := PassAtK(ctx, preds, ks)
	if err != nil {
		return nil, err
	}
	var out metrics.Values
	for _, k := range ks {
		name := fmt.Sprintf("pass@%d", k)
		out = append(out, metrics.NamedValue{Name: name, Value: score[name]})
	}
	return out, nil
}
