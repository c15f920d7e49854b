package humaneval_infilling

import (
	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcBuildPredictions = task.Helper{File: "humaneval_infilling/utils.py", Function: "build_predictions", SHA256: "1b42cf8285f794fed241650bb9f22ff6fa9bb1612d8f2ec1dddc899a9f195627"}
)

// Sources are the lm-eval functions this package serves: the file
// relative to lm_eval/tasks/, the function, and the sha256 of its source
// text (ast.get_source_segment, UTF-8) as testdata/gen.py computes it.
var Sources = []task.Helper{
	srcBuildPredictions,
	// The same source as humaneval/utils.py's pass_at_k: humaneval's port.
	{File: "humaneval_infilling/utils.py", Function: "pass_at_k", SHA256: "50ced366a9c95645899dd3c6fba919f9f9c2f408e5e428a3b2b4832ed3d2d859"},
}

func init() {
	// utils.pass_at_k is humaneval/utils.py's source: package humaneval's
	// registration serves it.
	task.RegisterFilterFunc(srcBuildPredictions, filters.ListFunc(BuildPredictions))
}
