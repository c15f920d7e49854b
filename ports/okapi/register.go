package okapi

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterMapDocs(task.Helper{File: "okapi/arc_multilingual/utils.py", Function: "process_docs",
		SHA256: "cf5a54704e9aa9a2f9cb92fef18ff5e85d71fb90893ec2bdb4f8dc143778c6b0"}, task.MapDocs{Fn: ArcProcessDocs, Columns: ArcColumns})
	task.RegisterMapDocs(task.Helper{File: "okapi/truthfulqa_multilingual/utils.py", Function: "process_docs",
		SHA256: "91974792f1d0b1cde1877667d6f9b38e333acd3fd3efe56bf70ff951cb23ecbe"}, task.MapDocs{Fn: TruthfulQAProcessDocs, Columns: TruthfulQAColumns})
}
