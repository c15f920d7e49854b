package arabic_leaderboard_complete_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/arabic_leaderboard_complete"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own process_docs (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	const c = "arabic_leaderboard_complete/arabic_leaderboard_"
	var want []string
	for _, d := range []string{"alghafa", "arabic_exams", "arabic_mmlu", "arabic_mt_boolq", "arabic_mt_copa",
		"arabic_mt_hellaswag", "arabic_mt_sciq", "arabic_mt_toxigen", "avca"} {
		want = append(want, c+d+"/utils.py:process_docs")
	}
	vectest.Run(t, "testdata/vectors.json", want...)
}
