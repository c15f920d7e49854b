package score

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

type vectors struct {
	Postprocess [][2]string `json:"postprocess"`
	Translate   [][3]any    `json:"translate"`
	DocToText   [][2]any    `json:"doc_to_text"`
	Macro       [][2]any    `json:"macro"`
	Consistency [][3]any    `json:"consistency"`
}

func items(v any) []any {
	var out []any
	for _, it := range v.([]any) {
		out = append(out, pydoc.FromJSON(it))
	}
	return out
}

func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Postprocess {
		if got := PostprocessPred(c[0]); got != c[1] {
			t.Errorf("PostprocessPred(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	for _, c := range v.Translate {
		var f *string
		if s, ok := c[1].(string); ok {
			f = &s
		}
		got, err := TranslateAnswer(c[0].(string), mmluProLabels, f)
		if err != nil || got != c[2] {
			t.Errorf("TranslateAnswer(%q, %v) = %q, %v; want %q", c[0], c[1], got, err, c[2])
		}
	}
	for _, c := range v.DocToText {
		got, err := DocToText(pydoc.FromJSON(c[0]).(map[string]any))
		if err != nil || got != c[1] {
			t.Errorf("DocToText(%v) = %q, %v; want %q", c[0], got, err, c[1])
		}
	}
	for _, c := range v.Macro {
		got, err := filteredAccuracy(items(c[0]), 5, 1, int64(0), 2, 3, 4)
		if err != nil || got != c[1].(float64) {
			t.Errorf("per_prompt_macro_accuracy(%v) = %v, %v; want %v", c[0], got, err, c[1])
		}
	}
	for _, c := range v.Consistency {
		its := items(c[0])
		got, err := OptionsConsistencyRate(its, mmluProLabels)
		if err != nil || got != c[1].(float64) {
			t.Errorf("options_consistency_rate(%v) = %v, %v; want %v", c[0], got, err, c[1])
		}
		var four []any
		for _, it := range its {
			four = append(four, it.([]any)[:4])
		}
		got, err = PromptConsistencyRate(four)
		if err != nil || !pyval.Equal(got, c[2]) {
			t.Errorf("prompt_consistency_rate(%v) = %v, %v; want %v", c[0], got, err, c[2])
		}
	}
}
