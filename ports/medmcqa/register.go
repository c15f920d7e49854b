package medmcqa

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDocFunc(task.Helper{File: "medmcqa/utils_medmcqa.py", Function: "doc_to_text",
		SHA256: "e9a3889cd304bd2bb6271cda0d50ea63b5a89c6bfff2a57c4fef2a5c2b5d3e2a"}, DocToText)
}
