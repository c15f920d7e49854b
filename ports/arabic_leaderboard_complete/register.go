package arabic_leaderboard_complete

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const dir = "arabic_leaderboard_complete/arabic_leaderboard_"
	mapped := func(fn func(task.Doc) (task.Doc, error)) task.MapDocs {
		return task.MapDocs{Fn: ProcessDocs(fn), Columns: Added}
	}
	// alghafa's, also the translated arc_challenge, arc_easy, mmlu,
	// openbook_qa, piqa and race (and their light copies).
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "alghafa/utils.py", SHA256: "88888bb68c21f879e6555268d21f00f90ae3017c472ee7695f6b26c669933f51"}, task.MapDocs{FnColumns: MCQDocs, Columns: Added})
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_exams/utils.py", SHA256: "e7f22deda25130374e135c9f66f177182a3090d7e5c676b53ac4457f81614a17"}, mapped(Exams))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mmlu/utils.py", SHA256: "860a70497dafdf31bb84c5c22f7d04f6ff561d4cfed4d7bc5c8828a3781ffe72"}, mapped(MMLU))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mt_boolq/utils.py", SHA256: "fc63562faf248f916bbdf4dd7badba164950957db969acbc286ef2daa465a8e0"}, mapped(BoolQ))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mt_copa/utils.py", SHA256: "e60e6ae5fea441dfb8ac83b2e06761c364f3f8b4f34b01e2a795b75a4e26e27d"}, mapped(COPA))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mt_hellaswag/utils.py", SHA256: "d31849b12df261618f8d9e52823693080f0677d6a6d95a8ec4dc5509fc9a9264"}, mapped(HellaSwag))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mt_sciq/utils.py", SHA256: "7de5bac56b015df61f722860529db2b9735eac0203a5f9b8f204d9626338236d"}, task.MapDocs{FnRand: SciQDocs, Columns: Added})
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "arabic_mt_toxigen/utils.py", SHA256: "a75a9cd0661a7a65a8510999b3a958132efebe0262b05436a0d3208d7eb1f95c"}, mapped(Toxigen))
	task.RegisterMapDocs(task.Helper{Function: "process_docs", File: dir + "avca/utils.py", SHA256: "f31a78b58aa20c9bb71ab291a3703130017e89d3b07bed58ceddc988d9bb82c0"}, mapped(AVCA))
}
