// Package tinybenchmarks marks lm_eval/tasks/tinyBenchmarks' aggregations
// as unavailable: agg_gpirt_<benchmark> estimates the full benchmark's
// score from the 100 sampled items with the tinyBenchmarks package
// (tb.evaluate), which is not in Debian, downloads its IRT model
// parameters (a pickle) from GitHub at run time and fits the model's
// ability parameters with scipy's BFGS. lmeval has no port of it, so the
// tiny tasks say so instead of reporting a plain accuracy under the
// estimate's name.
package tinybenchmarks

import "github.com/lmeval/lmeval/harness/task"

// Reason is what `lmeval ls` and `validate` say after the function name.
const Reason = "it estimates the full benchmark's score with the tinyBenchmarks package's IRT model, " +
	"whose parameters it downloads from GitHub at run time and fits with scipy; lmeval has no port of it"

var aggSHA = map[string]string{
	"agg_gpirt_arc":        "2ba238a8687fb57d4660a41114b6d3c26eb09ca3ed498dc6192e98d04ef07d45",
	"agg_gpirt_gsm8k":      "30ad165aa0d48d26e404ca77f814e0de960255898d113187084edece1095cfe3",
	"agg_gpirt_hellaswag":  "95da227ad60109db6361aa44004c1c94f5d03f1b753857e65979de0b9d08115d",
	"agg_gpirt_mmlu":       "eb0846e4b7b755457887f41dc4d7047e91d0b8b69cbb1d53c10a9da973218144",
	"agg_gpirt_truthfulqa": "10dc08ce01797ea9699470d4f64b8fbcd49b4984c8b63bf7230c015a1a1b9d77",
	"agg_gpirt_winogrande": "bb5262ec53d1b85fbf57d298a617a5a2a30f5042bcab93a0cd36dd9b71f92f95",
}

func init() {
	for name, sha := range aggSHA {
		task.RegisterUnavailable(task.Helper{File: "tinyBenchmarks/agg_functions.py", Function: name, SHA256: sha}, Reason)
	}
}
