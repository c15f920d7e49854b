package eus_exams

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterProcessDocs(task.Helper{File: "eus_exams/utils.py", Function: "process_docs",
		SHA256: "291e15efe5166f99fc6d9c65976c9b25348292c1a0864612bcc05388a5d0a367"}, ProcessDocs)
}
