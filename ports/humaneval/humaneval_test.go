package humaneval

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// vectors are lm-eval's own outputs (testdata/gen.py).
type vectors struct {
	File                     string            `json:"file"`
	Sources                  map[string]string `json:"sources"`
	Docs                     []map[string]any  `json:"docs"`
	Resps                    [][]string        `json:"resps"`
	BuildPredictions         [][]string        `json:"build_predictions"`
	BuildPredictionsInstruct [][]string        `json:"build_predictions_instruct"`
	PassAtK                  []struct {
		K       any   `json:"k"`
		PassedK []int `json:"passed_k"`
	} `json:"pass_at_k"`
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestSources(t *testing.T) {
	v := load(t)
	pysource.VerifyRecordedAll(t, Sources, v.File, v.Sources)
}

func TestBuildPredictions(t *testing.T) {
	v := load(t)
	for name, c := range map[string]struct {
		fn   func([][]string, []map[string]any) ([][]string, error)
		want [][]string
	}{
		"build_predictions":          {BuildPredictions, v.BuildPredictions},
		"build_predictions_instruct": {BuildPredictionsInstruct, v.BuildPredictionsInstruct},
	} {
		got, err := c.fn(v.Resps, v.Docs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %d documents, want %d", name, len(got), len(c.want))
		}
		for i := range got {
			if len(got[i]) == 0 && len(c.want[i]) == 0 {
				continue
			}
			if !reflect.DeepEqual(got[i], c.want[i]) {
				t.Errorf("%s: document %d: %q, want %q", name, i, got[i], c.want[i])
			}
		}
	}
}

// The registered filter gives the same lists through the custom filter's
// []any shape.
func TestRegisteredFilter(t *testing.T) {
	v := load(t)
	fn, ok := task.LookupHook("lm_eval/tasks/humaneval", "utils.build_predictions_instruct")
	if !ok {
		t.Fatal("utils.build_predictions_instruct is not registered for humaneval")
	}
	if _, ok := task.LookupHook("humaneval_infilling", "utils.build_predictions"); ok {
		t.Error("humaneval's port also answers for humaneval_infilling")
	}
	in := make([]any, len(v.Resps))
	for i, r := range v.Resps {
		l := make([]any, len(r))
		for j, s := range r {
			l[j] = s
		}
		in[i] = l
	}
	out, err := fn.FilterFunc.Apply(in, v.Docs)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range out {
		for j, s := range o.([]any) {
			if s != v.BuildPredictionsInstruct[i][j] {
				t.Fatalf("document %d response %d: %q, want %q", i, j, s, v.BuildPredictionsInstruct[i][j])
			}
		}
	}
}

// pass_at_k hands code_eval k as a list (an int becomes [k]) and returns
// its first result; here the programs really run.
func TestPassAtK(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ctx := codeexec.WithConsent(context.Background(), codeexec.Consent{})
	for _, c := range load(t).PassAtK {
		if _, isInt := c.K.(float64); isInt && !reflect.DeepEqual(c.PassedK, []int{int(c.K.(float64))}) {
			t.Errorf("lm-eval passed k=%v as %v", c.K, c.PassedK)
		}
	}
	prompt := "def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n"
	test := "\n\ndef check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n\ncheck(add)"
	resps := [][]string{{"    return a + b\n", "    return a * b\n", "    while True: pass\n", "    return a + b"}}
	preds, err := BuildPredictions(resps, []map[string]any{{"prompt": prompt}})
	if err != nil {
		t.Fatal(err)
	}
	score, err := PassAtK(ctx, []string{test}, preds, []int{1, 2, 4, 8})
	if err != nil {
		t.Fatal(err)
	}
	// n=4, c=2: pass@1 = 2/4, pass@2 = 1 - C(2,2)/C(4,2) = 5/6, pass@4 = 1;
	// pass@8 is left out (fewer than 8 candidates).
	want := map[string]float64{"pass@1": 0.5, "pass@2": 1 - 1.0/6, "pass@4": 1}
	for k, w := range want {
		if d := score[k] - w; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", k, score[k], w)
		}
	}
	if len(score) != len(want) {
		t.Errorf("score %v, want keys of %v", score, want)
	}
}
