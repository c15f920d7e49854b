// Package all links every native port of lm-eval's Python task helpers
// (the packages under ports/) into a binary: import it for its side
// effects.
package all

import (
	_ "lmeval/ports/bbh"
	_ "lmeval/ports/bbq"
	_ "lmeval/ports/bigbench"
	_ "lmeval/ports/code_x_glue"
	_ "lmeval/ports/crows_pairs"
	_ "lmeval/ports/cruxeval"
	_ "lmeval/ports/drop"
	_ "lmeval/ports/esbbq"
	_ "lmeval/ports/f1score"
	_ "lmeval/ports/global_mmlu"
	_ "lmeval/ports/gpqa"
	_ "lmeval/ports/hendrycks_math"
	_ "lmeval/ports/humaneval"
	_ "lmeval/ports/humaneval_infilling"
	_ "lmeval/ports/ifeval" // lm_eval/tasks/ifeval, leaderboard/ifeval
	_ "lmeval/ports/leaderboard/gpqa"
	_ "lmeval/ports/leaderboard/math"
	_ "lmeval/ports/leaderboard/mmlu_pro"
	_ "lmeval/ports/leaderboard/musr"
	_ "lmeval/ports/logiqa"
	_ "lmeval/ports/logiqa2"
	_ "lmeval/ports/mathqa"
	_ "lmeval/ports/mbpp"
	_ "lmeval/ports/med_text_classification"
	_ "lmeval/ports/minerva_math"
	_ "lmeval/ports/mmlu_pro"
	_ "lmeval/ports/mmlu_prox"
	_ "lmeval/ports/openai_mmmlu"
	_ "lmeval/ports/paloma"
	_ "lmeval/ports/pubmedqa"
	_ "lmeval/ports/race"
	_ "lmeval/ports/toxigen"
	_ "lmeval/ports/webqs"
	_ "lmeval/ports/winogender"
	_ "lmeval/ports/wsc273"
	_ "lmeval/ports/xcopa"
)
