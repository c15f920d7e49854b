package careqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "careqa/utils.py", Function: "doc_to_text",
		SHA256: "42af926e1e4b842f80b705be1b38f493cb2221d79f3448f94360eb733fbdc701"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "careqa/utils.py", Function: "doc_to_target",
		SHA256: "7652f8990f38b20566335f41a8b9158210ea5ec146ef4ff0b73bd51cc80cc495"}, DocToTarget)
	task.RegisterDocFunc(task.Helper{File: "careqa/utils_open.py", Function: "doc_to_text",
		SHA256: "34abf2a1d00c04b5055ce6966a2c2227aef3ab8baea5a555c376795f8feb1e08"}, OpenDocToText)
	task.RegisterDocFunc(task.Helper{File: "careqa/utils_open.py", Function: "doc_to_target",
		SHA256: "dd24f3f66e96d9c00f784864ceaabe8fb9331d81e541dd3cfe3cfe3b8f54a21b"}, OpenDocToTarget)
	task.RegisterUnavailable(task.Helper{File: "careqa/utils_open.py", Function: "process_results_gen",
		SHA256: "ff12ae80558f6025aff2439431e2ff914633ce426dccbca3ae1a396df03819bb"}, "it scores with BLEURT and BERTScore, model checkpoints lmeval cannot run")
	task.RegisterProcessResults(task.Helper{File: "careqa/utils_perplexity.py", Function: "process_results",
		SHA256: "f7052c7daeda157de944850f58a62257f529d53c1faad906df2aa4cb4ad75b62"}, PerplexityProcessResults)
}
