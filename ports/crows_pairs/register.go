package crows_pairs

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "crows_pairs/utils.py"
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results",
		SHA256: "acce6f0a7c4142de61703f1d6e640fce9bede429a365e9205740ad496ab6975c"}, ProcessResults)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice",
		SHA256: "1b94127f9e0e7769bf9ed70c195dbb52ad6dc34234a7acad2945e592f4458981"}, DocToChoice)
	for _, f := range Filters {
		bias := f.BiasType
		task.RegisterProcessDocs(task.Helper{File: file, Function: f.Function, SHA256: f.SHA256}, func(docs []task.Doc) ([]task.Doc, error) { return FilterDataset(docs, bias) })
	}
}
