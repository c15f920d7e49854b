package glianorex

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "glianorex/preprocess_glianorex.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "1b3b252cdfaac9d5ed350758c78f983d7b43e6b2dc97655743e2930b8653ea8e"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "f6484e24c07cb5aa1386c695af89b3ded20fec06ace5c8a0a3cdcb013c438d64"}, DocToTarget)
	task.RegisterProcessDocs(task.Helper{File: file, Function: "filter_french",
		SHA256: "d9eb6a77a6c9e87025ca083cc4d4f8ca7933e1b255c4caed4b2c59ed3948c176"}, func(docs []task.Doc) ([]task.Doc, error) { return FilterDataset(docs, "fr") })
	task.RegisterProcessDocs(task.Helper{File: file, Function: "filter_english",
		SHA256: "08b9884ee6c247e911d67009e828b19f286ed62307378f351bb89cd5aef3b003"}, func(docs []task.Doc) ([]task.Doc, error) { return FilterDataset(docs, "en") })
}
