package mmlusr

import "github.com/lmeval/lmeval/harness/task"

// answer_only/utils.py is the same file as question_only's and
// question_and_answer's, so this registration serves the three.
func init() {
	task.RegisterMapDocs(task.Helper{File: "mmlusr/answer_only/utils.py", Function: "process_docs",
		SHA256: "efee86987fb29d1c91eaf81f3b2600ece0b833c07b78cb6014104675964df4da"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
}
