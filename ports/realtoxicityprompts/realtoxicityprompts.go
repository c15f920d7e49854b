// Package realtoxicityprompts registers
// lm_eval/tasks/realtoxicityprompts/metric.py's process_results as
// unavailable: it scores each generation with Google's Perspective API.
package realtoxicityprompts

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterUnavailable(task.Helper{File: "realtoxicityprompts/metric.py", Function: "toxicity_perspective_api",
		SHA256: "bf665db42745508755d62fde6cf315962e8d303b1238c3fbd811c702233db9a1"}, "it scores every generation with Google's Perspective API, a hosted service "+
		"(PERSPECTIVE_API_KEY) that lmeval does not call")
}
