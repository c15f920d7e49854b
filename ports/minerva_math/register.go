package minerva_math

import (
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcDocToText          = task.Helper{File: "minerva_math/utils.py", Function: "doc_to_text", SHA256: "246741d2641d88c01796392e030b7918944320c09deb669bdd4937b71a25a765"}
	srcProcessDocs        = task.Helper{File: "minerva_math/utils.py", Function: "process_docs", SHA256: "1e514c8db8221d5987d009eeda03ad23a04635b3ebdf7b7061d8a55c5fe7ac51"}
	srcListFewshotSamples = task.Helper{File: "minerva_math/utils.py", Function: "list_fewshot_samples", SHA256: "e1d4180c6c2389134ad34fe51ac37467ee13e7893a602b3e9498d6de9e9dcd7f"}
	srcProcessResults     = task.Helper{File: "minerva_math/utils.py", Function: "process_results", SHA256: "b1bf57a8ed0d0cba59ec95de470ce5dfdb2928dc83faeba67f8f529a062e8220"}
)

// Sources are the functions of lm-eval's minerva_math/utils.py this
// package ports (at lm-eval commit 4e7e0d47f33bc71070c1d38394bafbb52b117163).
var Sources = []task.Helper{
	srcDocToText,
	srcProcessDocs,
	srcListFewshotSamples,
	srcProcessResults,
	{File: "minerva_math/utils.py", Function: "last_boxed_only_string", SHA256: "023e172087d58f5dc6fa2884a4fbecf3d98e0387cd9209742b42f9a7165c4f87"},
	{File: "minerva_math/utils.py", Function: "remove_boxed", SHA256: "06cd0f94d5859abd41f0edab9480513b684b2a49912f7b1054c1fa062597ef65"},
	{File: "minerva_math/utils.py", Function: "is_equiv", SHA256: "7eb195b33eedbcda5e0f24856bdacfbc8b01068ddd40118ce8d287a80cf250e8"},
	{File: "minerva_math/utils.py", Function: "get_unnormalized_answer", SHA256: "c71bd9ab0f43fb74fe5821d43e3b6d8ca758a4a8e553e0a83a0c0363357bddee"},
	{File: "minerva_math/utils.py", Function: "normalize_final_answer", SHA256: "277c624b859787ef83cb411c86616557dd3ff32f0e3047317635f69b77022325"},
}

func init() {
	// doc_to_text's source is the same in leaderboard/math/utils.py and
	// putnam_axiom: this registration serves them too.
	task.RegisterDocFunc(srcDocToText, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterProcessDocs(srcProcessDocs, ProcessDocs)
	task.RegisterSamples(srcListFewshotSamples, ListFewshotSamples)
	task.RegisterProcessResults(srcProcessResults, ProcessResults)
}
