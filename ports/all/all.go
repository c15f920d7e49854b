// Package all links every lm-eval port under ports/ into the binary: each
// port registers its functions in init.
package all

import (
	_ "lmeval/ports/ifeval" // lm_eval/tasks/ifeval, leaderboard/ifeval
)
