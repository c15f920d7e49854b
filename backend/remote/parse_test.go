package remote

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestParseScoresMatchesLMEval replays lm-eval's own
// LocalCompletionsAPI.parse_logprobs on echo answers
// (testdata/gen_parse_logprobs.py made the vectors with the real lm-eval).
func TestParseScoresMatchesLMEval(t *testing.T) {
	data, err := os.ReadFile("testdata/parse_logprobs.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name       string          `json:"name"`
		Ctxlens    []int           `json:"ctxlens"`
		PromptLens []int           `json:"prompt_lens"`
		Answer     json.RawMessage `json:"answer"`
		Want       [][2]any        `json:"want"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	var l LM
	for _, c := range cases {
		var ans completionAnswer
		if err := json.Unmarshal(c.Answer, &ans); err != nil {
			t.Fatal(err)
		}
		prompts := make([][]int32, len(c.PromptLens))
		for i, n := range c.PromptLens {
			prompts[i] = make([]int32, n)
		}
		got, err := l.parseScores(&ans, prompts, c.Ctxlens)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for i, w := range c.Want {
			if math.Abs(got[i].logProb-w[0].(float64)) > 1e-12 || got[i].greedy != w[1].(bool) {
				t.Errorf("%s choice %d: (%v, %v), lm-eval (%v, %v)", c.Name, i, got[i].logProb, got[i].greedy, w[0], w[1])
			}
		}
	}
	// What lm-eval would silently turn into chance-level numbers is an
	// error here: log-probs of the generated token only.
	var ans completionAnswer
	json.Unmarshal([]byte(`{"choices": [{"index": 0, "logprobs": {"tokens": ["x"], "token_logprobs": [-0.5], "top_logprobs": [{"x": -0.5}]}}]}`), &ans)
	if _, err := l.parseScores(&ans, [][]int32{make([]int32, 5)}, []int{2}); err == nil {
		t.Error("an answer without the prompt's log-probs was accepted")
	}
}
