// Package afrobench ports the helpers of lm_eval/tasks/afrobench that
// its task YAML names: afriqa's f1, masakhaner's span_f1_agg,
// masakhapos's doc_to_target and acc_score, mafand's prompts and
// targets, xlsum's rougeL and rougeL_agg. (weighted_f1_score, which
// several directories re-export from lm_eval.utils, is ports/f1score's.)
package afrobench

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	for _, a := range []*metrics.Aggregation{AfriQAF1Aggregation, SpanF1Aggregation, AccScoreAggregation, RougeLAggregation} {
		metrics.RegisterAggregation(a)
	}
	text := func(fn func(task.Doc) (string, error)) task.DocFunc {
		return func(d task.Doc) (any, error) { return fn(d) }
	}
	task.RegisterAggregation(task.Helper{File: "afrobench/afriqa/prompt_1/utils.py", Function: "f1",
		SHA256: "3b967aefd85cf985d364484474fff585ada07b493a6d2b7d60c1150ea29d3f95"}, AfriQAF1Aggregation)
	task.RegisterAggregation(task.Helper{File: "afrobench/masakhaner/prompt_1/utils.py", Function: "span_f1_agg",
		SHA256: "c3972ac0548fb8a03c9a252b07989083050543231368748143e885d0800d9924"}, SpanF1Aggregation)
	task.RegisterDocFunc(task.Helper{File: "afrobench/masakhapos/prompt_1/utils.py", Function: "doc_to_target",
		SHA256: "ff55ffe92b8d597c3ec627b18e7c890256f75292dd29df8ac092f2f2ae006784"}, POSDocToTarget)
	task.RegisterAggregation(task.Helper{File: "afrobench/masakhapos/prompt_1/utils.py", Function: "acc_score",
		SHA256: "ff3f3ae9737aa5de1806b6dca396113c409fdaa1c8589b595fe8cf64469d6c10"}, AccScoreAggregation)
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_1/african-english/utils.py", Function: "get_target",
		SHA256: "e34fbf2ce660ea4abe4d463c61200dd84f6d7271551d699ef8847637b4ee5dfa"}, text(GetTarget))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_1/english-african/utils.py", Function: "get_target_reverse",
		SHA256: "ff8ecd29d1c9edf8002883e539c6986fbe380b556ff92236fe1e6b1d1d2c5860"}, text(GetTargetReverse))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_1/african-english/utils.py", Function: "create_text_prompt_1",
		SHA256: "506d64e33003a7232bc61c1b221ac557bec745ed18c1ba24bd48f3b210c82938"}, text(CreateTextPrompt1))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_1/english-african/utils.py", Function: "create_reverse_prompt_1",
		SHA256: "a42f89934a8f160950bccee6c46c22a6322f20a0684dadca805ae660127fb8ce"}, text(CreateReversePrompt1))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_2/african-english/utils.py", Function: "create_text_prompt_2",
		SHA256: "6af0d1966ac4046a3949e256d53bb19dfb1e0bb4e38185644070f1f9b83493fe"}, text(CreateTextPrompt2))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_2/english-african/utils.py", Function: "create_reverse_prompt_2",
		SHA256: "ffb230bd39ec90e2f00eb4a100a4e1519730bab8643b4f6a0e30b1b045859ca2"}, text(CreateReversePrompt2))
	task.RegisterDocFunc(task.Helper{File: "afrobench/mafand/prompt_3/english-african/utils.py", Function: "create_reverse_prompt_3",
		SHA256: "684c8bcdfa2b7b608d7efc99173d123f9d0fee0b707cc31e1fc1d1fb545886c7"}, text(CreateReversePrompt3))
	task.RegisterMetric(task.Helper{File: "afrobench/xlsum/prompt_1/utils.py", Function: "rougeL",
		SHA256: "d24df20192b928829eb1411557f9df6657144f8b2fd20efa4ad0f90e4c9ebb40"}, RougeLMetric)
	task.RegisterAggregation(task.Helper{File: "afrobench/xlsum/prompt_1/utils.py", Function: "rougeL_agg",
		SHA256: "b53cf2cc7f35b13758a7a496f71a824ea6151707a7ea7886ac0c94319f347eb6"}, RougeLAggregation)
}
