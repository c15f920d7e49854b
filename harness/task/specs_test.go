package task

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/internal/plainyaml"
)

// metric_list parses into typed specs when the task loads: registered
// metrics with their defaults, overrides, keyword arguments, unknown
// metrics with an aggregation, and errors for what cannot be scored.
func TestMetricSpecs(t *testing.T) {
	if specs, err := metricSpecs(nil, OutputMultipleChoice, false); err != nil || specs != nil {
		t.Fatalf("no metric_list = %+v, %v; want none (the defaults score the task)", specs, err)
	}
	specs, err := metricSpecs([]any{
		map[string]any{"metric": "exact_match", "aggregation": "mean", "higher_is_better": true, "ignore_case": true, "ignore_punctuation": false, "regexes_to_ignore": []any{",", `\$`}},
		map[string]any{"metric": "ter"},
		map[string]any{"metric": "perplexity", "higher_is_better": true},
		map[string]any{"metric": "my_custom", "aggregation": "median", "higher_is_better": false},
		map[string]any{"metric": "f1", "hf_evaluate": true, "average": "micro", "aggregation": "mean"},
		map[string]any{"metric": "accuracy", "aggregation": "mean"},
	}, OutputGenerateUntil, false)
	if err != nil {
		t.Fatal(err)
	}
	if s := specs[0]; s.Aggregation != "mean" || !s.HigherIsBetter || s.Kwargs["ignore_case"] != true || len(s.Kwargs) != 3 || s.Func != nil {
		t.Errorf("exact_match spec = %+v", s)
	}
	if s := specs[1]; s.Aggregation != "ter" || !s.HigherIsBetter {
		t.Errorf("ter spec = %+v (lm-eval registers higher_is_better=True)", s)
	}
	if s := specs[2]; s.Aggregation != "perplexity" || !s.HigherIsBetter {
		t.Errorf("override higher_is_better: %+v", s)
	}
	if s := specs[3]; s.Registered || s.Aggregation != "median" || s.HigherIsBetter {
		t.Errorf("custom metric spec = %+v", s)
	}
	// Hugging Face evaluate's: called as lm-eval calls a metric function,
	// so not also scored as the registered metric of that name.
	if s := specs[4]; s.Evaluate == nil || s.Func == nil || s.Registered || len(s.Kwargs) != 1 {
		t.Errorf("f1 with hf_evaluate: %+v", s)
	}
	if s := specs[5]; s.Evaluate == nil || s.Func == nil {
		t.Errorf("accuracy (evaluate's): %+v", s)
	}
	for _, bad := range []struct {
		list any
		want string
	}{
		{[]any{map[string]any{"metric": "nonesuch"}}, `metric_list[0]: unknown metric "nonesuch" and no aggregation given`},
		{[]any{map[string]any{"metric": "accuracy"}}, `unknown metric "accuracy" and no aggregation given`},
		{[]any{map[string]any{"metric": "acc", "aggregation": "nonesuch"}}, `metric_list[0]: (acc): unknown aggregation "nonesuch"`},
		{[]any{map[string]any{"metric": "acc", "aggregation": 3}}, `aggregation must name a registered aggregation, got int`},
		{[]any{map[string]any{"metric": "acc", "higher_is_better": "yes"}}, `higher_is_better must be true or false`},
		{[]any{map[string]any{"aggregation": "mean"}}, `metric_list[0]: missing metric name`},
	} {
		l, _ := bad.list.([]any)
		if _, err := metricSpecs(l, OutputMultipleChoice, false); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("metricSpecs(%v): %v, want an error with %q", bad.list, err, bad.want)
		}
	}
}

// A `metric: !function` is named after the Python function; one lm-eval
// calls with references and predictions is the evaluator's to call
// (Spec.Func), for generate_until tasks without process_results only.
func TestMetricSpecsFunctions(t *testing.T) {
	fn := metrics.Func(func(context.Context, []any, []any, map[string]any) (any, error) { return 1.0, nil })
	doc := metrics.DocFunc(func(metrics.Spec, *metrics.DocResult) (any, error) { return 1.0, nil })
	call := &Func{Name: "utils.pass_at_1", Hook: &Hook{Kind: HookMetric, Metric: fn}}
	perDoc := &Func{Name: "t5_utils.f1", Hook: &Hook{Kind: HookMetric, DocMetric: doc}}
	notMetric := &Func{Name: "utils.text", Hook: &Hook{Helper: Helper{File: "x/utils.py", Function: "text"}, Kind: HookDocFunc, DocFunc: func(Doc) (any, error) { return "", nil }}}
	list := []any{map[string]any{"metric": call, "k": []any{1}}, map[string]any{"metric": perDoc}}
	specs, err := metricSpecs(list, OutputGenerateUntil, false)
	if err != nil {
		t.Fatal(err)
	}
	if s := specs[0]; s.Name != "pass_at_1" || s.Function != "utils.pass_at_1" || s.Func == nil || s.Doc == nil || s.Aggregation != "mean" || len(s.Kwargs) != 1 {
		t.Errorf("function metric: %+v", s)
	}
	if s := specs[1]; s.Name != "f1" || s.Func != nil || s.Doc == nil || !s.Registered {
		t.Errorf("per-document function metric: %+v", s)
	}
	if specs, err := metricSpecs(list, OutputGenerateUntil, true); err != nil || specs[0].Func != nil {
		t.Errorf("with process_results the function is not called: %+v, %v", specs, err)
	}
	if _, err := metricSpecs(list, OutputMultipleChoice, false); err == nil || !strings.Contains(err.Error(), "function metric utils.pass_at_1: only generate_until tasks are supported") {
		t.Errorf("multiple_choice function metric: %v", err)
	}
	if _, err := metricSpecs([]any{map[string]any{"metric": notMetric}}, OutputGenerateUntil, false); err == nil ||
		!strings.Contains(err.Error(), "metric utils.text: the port of x/utils.py:text is registered as a doc_to_* hook, not metric") {
		t.Errorf("a doc_to_* port as a metric: %v", err)
	}
}

// filter_list parses into named pipelines of typed steps: registered
// filters with their arguments, native filter classes and filter_fn.
func TestFilterSpecs(t *testing.T) {
	// gsm8k.yaml's filter_list as the task loader decodes it.
	fl := []any{
		map[string]any{"name": "strict-match", "filter": []any{
			map[string]any{"function": "regex", "regex_pattern": `#### (\-?[0-9\.\,]+)`},
			map[string]any{"function": "take_first"},
		}},
		map[string]any{"name": "flexible-extract", "filter": []any{
			map[string]any{"function": "regex", "group_select": -1, "regex_pattern": `(-?[$0-9.,]{2,})|(-?[0-9]+)`},
			map[string]any{"function": "take_first"},
		}},
	}
	specs, err := filterSpecs(fl)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].Name != "strict-match" || specs[1].Name != "flexible-extract" || specs[1].Steps[0].Args["group_select"] != -1 {
		t.Fatalf("pipelines = %+v", specs)
	}
	p, err := filters.NewPipeline(specs[1].Name, specs[1].Steps)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.ApplyStrings([][]string{{"so 3 then 14"}}, nil); err != nil || got[0] != "14" {
		t.Errorf("flexible-extract = %v, %v", got, err)
	}
	// A mapping of name to pipeline, in name order.
	if specs, err := filterSpecs(map[string]any{"b": fl[0], "a": fl[1]}); err != nil || len(specs) != 2 || specs[0].Name != "flexible-extract" {
		t.Errorf("mapping: %+v, %v", specs, err)
	}
	factory := filters.Factory(func(map[string]any) (filters.Filter, error) { return nil, nil })
	fn := filters.FilterFunc(func(r []any, _ []map[string]any) ([]any, error) { return r, nil })
	specs, err = filterSpecs([]any{map[string]any{"name": "n", "filter": []any{
		map[string]any{"function": &Func{Name: "utils.F", Hook: &Hook{Kind: HookFilter, Filter: factory}}, "x": 1},
		map[string]any{"function": "custom", "filter_fn": &Func{Name: "utils.f", Hook: &Hook{Kind: HookFilterFunc, FilterFunc: fn}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := specs[0].Steps; s[0].Function != "utils.F" || s[0].Factory == nil || len(s[0].Args) != 1 || s[1].Func == nil || len(s[1].Args) != 0 {
		t.Errorf("native steps = %+v", s)
	}
	for _, bad := range []any{
		[]any{map[string]any{"filter": []any{}}},
		[]any{map[string]any{"name": "x", "filter": "take_first"}},
		[]any{map[string]any{"name": "x", "filter": []any{"take_first"}}},
		[]any{map[string]any{"name": "x", "filter": []any{map[string]any{"group_select": 0}}}},
		[]any{map[string]any{"name": "x", "filter": []any{map[string]any{"function": &Func{Name: "utils.g", Hook: &Hook{Kind: HookFilterFunc, FilterFunc: fn}}}}}},
	} {
		if _, err := filterSpecs(bad); err == nil {
			t.Errorf("filterSpecs(%v): want an error", bad)
		}
	}
}

// Every metric_list and filter_list in the sample of lm-eval's task files
// parses (entries naming Python functions, which need Go registrations,
// aside), and gsm8k's pipelines extract what lm-eval extracts.
func TestSharedTaskMetricAndFilterLists(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval-sample", "tasks")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/lm-eval-sample is absent; skipping real task files")
	}
	files, err := plainyaml.Tree(root)
	if err != nil {
		t.Fatal(err)
	}
	nm, nf := 0, 0
	for _, f := range files {
		path, cfg, data := f.Path, f.Config, f.Data
		if l, ok := cfg["metric_list"].([]any); ok && !strings.Contains(string(data), "!function") {
			s, _ := cfg["output_type"].(string)
			ot := OutputType(s)
			if ot == "" {
				ot = OutputGenerateUntil
			}
			nm++
			specs, err := metricSpecs(l, ot, cfg["process_results"] != nil)
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
			for _, s := range specs {
				if s.Name == "exact_match" {
					if _, err := metrics.ParseExactMatchOptions(s.Kwargs); err != nil {
						t.Errorf("%s: %v", path, err)
					}
				}
			}
		}
		if cfg["filter_list"] == nil || strings.Contains(string(data), "!function") {
			continue
		}
		nf++
		specs, err := filterSpecs(cfg["filter_list"])
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, s := range specs {
			p, err := filters.NewPipeline(s.Name, s.Steps)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if filepath.Base(path) == "gsm8k.yaml" {
				resp := [][]string{{"48/2 = 24 clips in May.\n48+24 = 72 clips.\n#### 72\n\nQuestion: next"}}
				if got, err := p.ApplyStrings(resp, nil); err != nil || got[0] != "72" {
					t.Errorf("gsm8k %s: %v, %v", p.Name, got, err)
				}
			}
		}
	}
	if nm < 10 || nf == 0 {
		t.Errorf("only %d metric_lists and %d filter_lists found in the sample task files", nm, nf)
	}
}
