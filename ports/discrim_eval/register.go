package discrim_eval

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessResults(task.Helper{File: "discrim_eval/utils.py", Function: "process_results",
		SHA256: "261c98782f1a687ebacad052263386bafe571d424a2062eea1fbecfeb1262f52"}, ProcessResults)
	task.RegisterUnavailable(task.Helper{File: "discrim_eval/utils.py", Function: "agg_demographic_bias_regression",
		SHA256: "4f8f521fd321dc331ca17c9cf3db3f94166ce4a588165e30587eb555ec81d8cb"}, "the bias scores are coefficients of statsmodels' mixed linear model (MixedLM), which lmeval does not fit")
}
