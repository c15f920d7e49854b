package based

import (
	"encoding/json"
	"os"
	"testing"
)

// testdata/vectors.json: lm-eval's contains_score (fda/task.py), from
// ports/testdata/gen_class_vectors.py.
func TestContainsScore(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Contains []struct {
			Prediction, Label string
			Output            int
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Contains {
		got, err := ContainsScore(c.Prediction, []string{c.Label})
		if err != nil || got != c.Output {
			t.Errorf("contains_score(%q, [%q]) = %d, %v; want %d", c.Prediction, c.Label, got, err, c.Output)
		}
	}
}

func TestGenKwargs(t *testing.T) {
	cfg := map[string]any{"temperature": 0.0, "do_sample": false, "max_gen_toks": 256, "until": []any{"\n\n"}}
	got := ConfigGenKwargs(cfg)
	if got["max_gen_toks"] != 256 || len(got["until"].([]any)) != 1 || got["until"].([]any)[0] != "\n\n" {
		t.Errorf("SQUADCompletion keeps the config's kwargs: %v", got)
	}
	got = ConfigGenKwargs(map[string]any{"temperature": 0.5})
	if got["max_gen_toks"] != 48 || got["until"].([]any)[0] != "\n" || got["temperature"] != 0.5 {
		t.Errorf("SQUADCompletion's defaults: %v", got)
	}
}
