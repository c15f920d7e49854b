// Package all imports every native port of lm-eval's Python helpers, so
// a blank import of it registers them all.
package all

import (
	_ "lmeval/ports/bbh"
	_ "lmeval/ports/bigbench"
	_ "lmeval/ports/drop"
	_ "lmeval/ports/f1score"
	_ "lmeval/ports/global_mmlu"
	_ "lmeval/ports/gpqa"
	_ "lmeval/ports/leaderboard/gpqa"
	_ "lmeval/ports/leaderboard/mmlu_pro"
	_ "lmeval/ports/leaderboard/musr"
	_ "lmeval/ports/logiqa"
	_ "lmeval/ports/logiqa2"
	_ "lmeval/ports/mathqa"
	_ "lmeval/ports/mmlu_pro"
	_ "lmeval/ports/mmlu_prox"
	_ "lmeval/ports/openai_mmmlu"
	_ "lmeval/ports/race"
	_ "lmeval/ports/xcopa"
)
