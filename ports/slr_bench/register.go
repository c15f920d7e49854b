// Package slr_bench registers lm_eval/tasks/slr_bench's process_results
// as unavailable: it scores a rule by running the Hub's
// AIML-TUDA/VerifiableRewardsForScalableLogicalReasoning metric, which
// executes SWI-Prolog (swipl); lmeval has neither.
package slr_bench

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterUnavailable(task.Helper{File: "slr_bench/lm_eval_slr_bench.py", Function: "process_results",
		SHA256: "67eadf3d9de749fa5da4f8238c41be11801e99bfa11fea0c124eb9a93d966142"}, "it scores rules with the Hub metric AIML-TUDA/VerifiableRewardsForScalableLogicalReasoning, which runs SWI-Prolog; lmeval has neither")
}
