package mmlu_pro

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "leaderboard/mmlu_pro/utils.py", Function: "doc_to_text",
		SHA256: "23f9e4ec51864095eb747cf9eb842c48959a472dacb8b5eed4b47168b29a7bec"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: "leaderboard/mmlu_pro/utils.py", Function: "doc_to_choice",
		SHA256: "bb3657f4d3e2c10f17ef864ad978e7105820b6516c715f286248f85cd214a578"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
}
