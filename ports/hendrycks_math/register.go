package hendrycks_math

import (
	"github.com/lmeval/lmeval/harness/task"
)

// The helpers this package registers ports of.
var (
	srcProcessDocs    = task.Helper{File: "hendrycks_math/utils.py", Function: "process_docs", SHA256: "96d1d84afc0801499547aca528d512ee10ecf2f17271d54d37699a6e06a04e6a"}
	srcProcessResults = task.Helper{File: "hendrycks_math/utils.py", Function: "process_results", SHA256: "2e94f2675967277a999594c88cfa1bfe9f1a6dd35d30a7689e72998748317b43"}
)

// Sources are the functions of lm-eval's hendrycks_math/utils.py this
// package ports (at lm-eval commit 4e7e0d47f33bc71070c1d38394bafbb52b117163).
var Sources = []task.Helper{
	srcProcessDocs,
	srcProcessResults,
	{File: "hendrycks_math/utils.py", Function: "is_equiv", SHA256: "a9e0962951c5f950a42219296c44a9dd564aaaa9b67ff17ef099c478744c8ddc"},
	{File: "hendrycks_math/utils.py", Function: "remove_boxed", SHA256: "19aa81a773ab7e31cd58d617ce222b18b9afe73a8c894839a9e82074f97d7bac"},
	{File: "hendrycks_math/utils.py", Function: "last_boxed_only_string", SHA256: "77ebe80e8eb611b1064d86c2447a0e96ab91ae08f3c6a5ee2968242c196cb8d0"},
	{File: "hendrycks_math/utils.py", Function: "fix_fracs", SHA256: "7ae7145c40356c71b4d7774c7ac5ad0dd13a4b70aec70171428c0f14f73f9bfe"},
	{File: "hendrycks_math/utils.py", Function: "fix_a_slash_b", SHA256: "df6b791a3be15b9684d4fbea064cc634dbe9a225e412041a3278bafe4818a141"},
	{File: "hendrycks_math/utils.py", Function: "remove_right_units", SHA256: "7ebdfd4935766a8cb6460b9c76cc4cf9165763b25ce5bbabafb4b8a23173bd8d"},
	{File: "hendrycks_math/utils.py", Function: "fix_sqrt", SHA256: "1775e40d55618fa093aa35d9f49b144fde57ffb91e5da728855237cf7ea236b2"},
	{File: "hendrycks_math/utils.py", Function: "strip_string", SHA256: "235f50dd2af031bd38287ee72faba3d27b926ede5b9d5aa7dd3a203588ca6d7f"},
}

func init() {
	task.RegisterProcessDocs(srcProcessDocs, ProcessDocs)
	task.RegisterProcessResults(srcProcessResults, ProcessResults)
}
