package leaderboardmath

import (
	"os"
	"testing"

	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// TestSourcesMatchLMEval checks the recorded sha256 of every ported
// function against lm-eval's task tree in ../shared.
func TestSourcesMatchLMEval(t *testing.T) {
	const tasks = "../../../../shared/lm-eval/lm_eval/tasks"
	if _, err := os.Stat(tasks); err != nil {
		t.Skipf("lm-eval's task tree is not in ../shared: %v", err)
	}
	for _, err := range pysource.Check(tasks, Sources) {
		t.Error(err)
	}
}
