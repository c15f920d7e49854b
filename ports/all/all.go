// Package all links every native port of lm-eval's Python task helpers
// (the packages under ports/) into a binary: import it for its side
// effects.
package all

import (
	_ "lmeval/ports/cruxeval"
	_ "lmeval/ports/hendrycks_math"
	_ "lmeval/ports/humaneval"
	_ "lmeval/ports/humaneval_infilling"
	_ "lmeval/ports/ifeval" // lm_eval/tasks/ifeval, leaderboard/ifeval
	_ "lmeval/ports/leaderboard/math"
	_ "lmeval/ports/mbpp"
	_ "lmeval/ports/minerva_math"
)
