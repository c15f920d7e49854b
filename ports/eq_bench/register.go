package eq_bench

import "github.com/lmeval/lmeval/harness/task"

func init() {
	// eq_bench/utils.py and eq_bench/multilingual/utils.py are the same file
	task.RegisterProcessResults(task.Helper{File: "eq_bench/utils.py", Function: "calculate_score_fullscale",
		SHA256: "4ab5b47924b81f07178033f2768970406b93c5785a9350e81d380a9ef610783c"}, CalculateScoreFullscale)
}
