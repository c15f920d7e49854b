package task

import (
	"fmt"
	"reflect"
	"testing"
)

// TestParseConfigFaults pins which fault parseConfig reports first when a
// config has several, the warnings it returns with it, and the
// Unsupported reason that wins (the messages as parseConfig gave them
// before it was split into steps).
func TestParseConfigFaults(t *testing.T) {
	f := &Func{Name: "x"}
	cases := []struct {
		raw         map[string]any
		err         string
		warnings    []string
		unsupported string
	}{
		{raw: map[string]any{"custom_dataset": 3, "process_docs": 4, "num_fewshot": "a"},
			err: "f.yaml: custom_dataset: got 3 (int), want !function module.fn"},
		{raw: map[string]any{"process_results": "p", "use_prompt": "u"},
			unsupported: `use_prompt "u": promptsource prompts are not supported`},
		{raw: map[string]any{"process_results": "p"},
			unsupported: "process_results given as a string is not supported"},
		{raw: map[string]any{"process_results": 5, "doc_to_text": true},
			err: "f.yaml: process_results: got 5 (int), want !function module.fn"},
		{raw: map[string]any{"doc_to_text": true, "num_fewshot": 1.5},
			err: "f.yaml: doc_to_text: got true (bool), want a field name, a template, an int, a list or !function"},
		{raw: map[string]any{"num_fewshot": 1.5, "output_type": "bad"},
			err: "f.yaml: num_fewshot: got 1.5 (float64), want an int"},
		{raw: map[string]any{"num_fewshot": 2.0, "output_type": "bad", "repeats": 0},
			err: `f.yaml: invalid output_type "bad", must be one of loglikelihood, multiple_choice, loglikelihood_rolling, generate_until`},
		{raw: map[string]any{"repeats": 0, "fewshot_config": map[string]any{"samples": 3}},
			err: "f.yaml: repeats: got 0 (int), want a positive int"},
		{raw: map[string]any{"zz": 1, "aa": 2, "fewshot_config": map[string]any{"zz": 1, "samples": []any{1}, "sampler": "nope"}},
			err:      "f.yaml: fewshot_config.samples: got 1 (int), want a list of documents",
			warnings: []string{`f.yaml: unknown key "aa" in task config`, `f.yaml: unknown key "zz" in task config`, `f.yaml: unknown key "zz" in fewshot_config`}},
		{raw: map[string]any{"fewshot_config": map[string]any{"samples": f, "fewshot_indices": []any{1, "b"}}},
			err: "f.yaml: fewshot_config.fewshot_indices: got b (string), want ints"},
		{raw: map[string]any{"fewshot_config": map[string]any{"sampler": "nope", "process_docs": f}},
			err: `f.yaml: fewshot_config.sampler "nope": no such sampler (known: default, first_n, balanced)`},
	}
	for i, tc := range cases {
		c, w, err := parseConfig(tc.raw, "f.yaml")
		if got := fmt.Sprint(err); (err != nil || tc.err != "") && got != tc.err {
			t.Errorf("case %d: error %q, want %q", i, got, tc.err)
		}
		if !reflect.DeepEqual(w, tc.warnings) {
			t.Errorf("case %d: warnings %q, want %q", i, w, tc.warnings)
		}
		if err == nil && c.Unsupported != tc.unsupported {
			t.Errorf("case %d: Unsupported %q, want %q", i, c.Unsupported, tc.unsupported)
		}
	}
}

// TestParseConfigGenerationKwargs checks generation_kwargs completed as
// TaskConfig.__post_init__ does, reading fewshot_delimiter and output_type.
func TestParseConfigGenerationKwargs(t *testing.T) {
	c, _, err := parseConfig(map[string]any{
		"fewshot_delimiter": "X",
		"generation_kwargs": map[string]any{"temperature": 1, genKwargsOrderKey: []string{"temperature"}},
	}, "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"temperature": 1.0, "until": []any{"X"}}
	if !reflect.DeepEqual(c.GenerationKwargs, want) || !reflect.DeepEqual(c.GenKwargsOrder, []string{"temperature", "until"}) {
		t.Errorf("got %v %v", c.GenerationKwargs, c.GenKwargsOrder)
	}
	if !reflect.DeepEqual(c.Raw["generation_kwargs"], map[string]any{"temperature": 1}) {
		t.Errorf("raw generation_kwargs %v", c.Raw["generation_kwargs"])
	}
	c, _, _ = parseConfig(map[string]any{"output_type": "multiple_choice"}, "f.yaml")
	if c.GenerationKwargs != nil {
		t.Errorf("multiple_choice: %v", c.GenerationKwargs)
	}
	c, _, _ = parseConfig(map[string]any{}, "f.yaml")
	if len(c.GenKwargsOrder) != 4 || c.GenerationKwargs["max_gen_toks"] != DefaultMaxGenToks {
		t.Errorf("default: %v %v", c.GenerationKwargs, c.GenKwargsOrder)
	}
}
