package putnam_axiom_test

import (
	"encoding/json"
	"github.com/lmeval/lmeval/ports/putnam_axiom"
	"os"
	"testing"

	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays calls of lm-eval's own functions
// (testdata/gen_vectors.py) through the registered ports.
func TestVectors(t *testing.T) { vectest.Run(t, "testdata/vectors.json") }

// TestAnswers compares the answer process_results compares with
// lm-eval's (testdata/answers.json).
func TestAnswers(t *testing.T) {
	data, err := os.ReadFile("testdata/answers.json")
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]string
	if err := json.Unmarshal(data, &pairs); err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if got := putnam_axiom.Answer(p[0]); got != p[1] {
			t.Errorf("Answer(%q) = %q, lm-eval %q", p[0], got, p[1])
		}
	}
}
