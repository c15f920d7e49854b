package leaderboardmath

import (
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcProcessDocs        = task.Helper{File: "leaderboard/math/utils.py", Function: "process_docs", SHA256: "92158150a9e1b2f886d0cd091f634082818a0be140ca3b38c8639e4977ed13fd"}
	srcListFewshotSamples = task.Helper{File: "leaderboard/math/utils.py", Function: "list_fewshot_samples", SHA256: "1872bf102b53e230bb81760e774f5123acb55c4cd8dc8579af5e14af15befd9a"}
	srcProcessResults     = task.Helper{File: "leaderboard/math/utils.py", Function: "process_results", SHA256: "c0d2f594b89a56bce3b495114914fa1661ed755f081d8ebb603705bc2fd7b079"}
)

// Sources are the functions of lm-eval's leaderboard/math/utils.py this
// package ports (at lm-eval commit 4e7e0d47f33bc71070c1d38394bafbb52b117163).
// normalize_final_answer is the same source as minerva_math's, and
// doc_to_text, is_equiv (but for its 1 s timeout) and
// get_unnormalized_answer do the same; those are shared with package
// minerva_math.
var Sources = []task.Helper{
	{File: "leaderboard/math/utils.py", Function: "doc_to_text", SHA256: "246741d2641d88c01796392e030b7918944320c09deb669bdd4937b71a25a765"},
	srcProcessDocs,
	srcListFewshotSamples,
	srcProcessResults,
	{File: "leaderboard/math/utils.py", Function: "process_result_v1", SHA256: "09f6b4387a350587d05c764d99cf75a780ead32cb97c67cd1ce9bbccb4ae8603"},
	{File: "leaderboard/math/utils.py", Function: "last_boxed_only_string", SHA256: "4c16f7585f7ef5e36ca8f356a8673580f1a93037cbf3dacab7f1c0718cb0a402"},
	{File: "leaderboard/math/utils.py", Function: "remove_boxed", SHA256: "5dd3d3c34524e6d5871781ca0f026e70d596ecc178080b828fe45f9a8cb1d608"},
	{File: "leaderboard/math/utils.py", Function: "is_equiv", SHA256: "2e60d70c2b0fa883f87e95761470672b8645ac4e7398d531672e6196dc4a29a1"},
	{File: "leaderboard/math/utils.py", Function: "get_unnormalized_answer", SHA256: "08359b195e44ae7607ed366dd7d085f29ce797a0072e55b000359835ab3b502c"},
	{File: "leaderboard/math/utils.py", Function: "normalize_final_answer", SHA256: "277c624b859787ef83cb411c86616557dd3ff32f0e3047317635f69b77022325"},
}

func init() {
	// utils.doc_to_text is the same source as minerva_math/utils.py's:
	// package minerva_math's registration serves it.
	task.RegisterProcessDocs(srcProcessDocs, ProcessDocs)
	task.RegisterSamples(srcListFewshotSamples, ListFewshotSamples)
	task.RegisterProcessResults(srcProcessResults, ProcessResults)
}
