// Package all links every native port of lm-eval's Python helpers into a
// binary: import it for its side effects.
package all

import (
	_ "lmeval/ports/hendrycks_math"
	_ "lmeval/ports/leaderboard/math"
	_ "lmeval/ports/minerva_math"
)
