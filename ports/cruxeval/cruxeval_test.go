package cruxeval

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// vectors are lm-eval's own outputs (testdata/gen.py).
type vectors struct {
	File    string            `json:"file"`
	Sources map[string]string `json:"sources"`
	Extract []struct {
		Doc        map[string]any `json:"doc"`
		Generation string         `json:"generation"`
		Cot        bool           `json:"cot"`
		Input      string         `json:"input"`
		Output     string         `json:"output"`
	} `json:"extract"`
	Resps         [][]string            `json:"resps"`
	Docs          []map[string]any      `json:"docs"`
	Build         map[string][][]string `json:"build"`
	FewshotInput  json.RawMessage       `json:"fewshot_input"`
	FewshotOutput json.RawMessage       `json:"fewshot_output"`
	Programs      map[string]string     `json:"programs"`
	PassAtK       []struct {
		Programs [][]string         `json:"programs"`
		K        any                `json:"k"`
		Out      map[string]float64 `json:"out"`
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
	pysource.VerifyRecorded(t, Sources, v.File, v.Sources)
}

func TestExtract(t *testing.T) {
	v := load(t)
	if len(v.Extract) < 800 {
		t.Fatalf("%d vectors", len(v.Extract))
	}
	for i, c := range v.Extract {
		if got := ExtractCodeInput(c.Doc, c.Generation, c.Cot); got != c.Input {
			t.Errorf("vector %d: extract_code_input(%q, cot=%v) = %q, want %q", i, c.Generation, c.Cot, got, c.Input)
		}
		if got := ExtractCodeOutput(c.Doc, c.Generation, c.Cot); got != c.Output {
			t.Errorf("vector %d: extract_code_output(%q, cot=%v) = %q, want %q", i, c.Generation, c.Cot, got, c.Output)
		}
	}
}

func TestBuildAndFewshot(t *testing.T) {
	v := load(t)
	for name, fn := range map[string]func([][]string, []map[string]any) ([][]string, error){
		"build_predictions_input": BuildPredictionsInput, "build_predictions_input_cot": BuildPredictionsInputCot,
		"build_predictions_output": BuildPredictionsOutput, "build_predictions_output_cot": BuildPredictionsOutputCot,
	} {
		got, err := fn(v.Resps, v.Docs)
		if err != nil || !reflect.DeepEqual(got, v.Build[name]) {
			t.Errorf("%s = %q, %v\nwant %q", name, got, err, v.Build[name])
		}
	}
	for name, c := range map[string]struct {
		fn   func() ([]map[string]any, error)
		want json.RawMessage
	}{"input": {ListFewshotSamplesInput, v.FewshotInput}, "output": {ListFewshotSamplesOutput, v.FewshotOutput}} {
		docs, _ := c.fn()
		var got, want any
		b, _ := json.Marshal(docs)
		json.Unmarshal(b, &got)
		json.Unmarshal(c.want, &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("list_fewshot_samples_%s = %s, want %s", name, b, c.want)
		}
	}
}

// pass_at_k on programs that pass, fail, loop and do not parse, against
// what lm-eval's own executor gave.
func TestPassAtK(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ctx := codeexec.WithConsent(context.Background(), codeexec.Consent{})
	v := load(t)
	for _, c := range v.PassAtK {
		preds := make([]any, len(c.Programs))
		for i, ps := range c.Programs {
			l := []any{}
			for _, p := range ps {
				l = append(l, v.Programs[p])
			}
			preds[i] = l
		}
		kw := map[string]any{}
		switch k := c.K.(type) {
		case float64:
			kw["k"] = int(k)
		case []any:
			var l []any
			for _, e := range k {
				l = append(l, int(e.(float64)))
			}
			kw["k"] = l
		}
		got, err := passAtKMetric(ctx, nil, preds, kw)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, it := range got.(metrics.Values) {
			m[it.Name] = it.Value.(float64)
		}
		if len(m) != len(c.Out) {
			t.Errorf("%v, k=%v: %v, lm-eval %v", c.Programs, c.K, m, c.Out)
		}
		for k, w := range c.Out {
			if d := m[k] - w; d > 1e-12 || d < -1e-12 {
				t.Errorf("%v, k=%v: %s = %v, lm-eval %v", c.Programs, c.K, k, m[k], w)
			}
		}
	}
}
