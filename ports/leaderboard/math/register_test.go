package leaderboardmath

import (
	"testing"

	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// TestSourcesMatchLMEval checks the recorded sha256 of every ported
// function against lm-eval's task tree in ../shared.
func TestSourcesMatchLMEval(t *testing.T) {
	pysource.Verify(t, Sources)
}
