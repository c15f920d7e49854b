package benchmarks

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

// TestAllTasksLoad loads every built-in task and group: all functions
// resolve, no key is unknown.
func TestAllTasksLoad(t *testing.T) {
	r := builtin(t)
	names := r.All()
	sel, err := r.Load(names)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Warnings(); len(w) > 0 {
		t.Errorf("warnings:\n%s", strings.Join(w, "\n"))
	}
	tasks := map[string]bool{}
	for _, tk := range sel.Tasks() {
		tasks[tk.Name] = true
		if tk.Config.Unsupported != "" {
			t.Errorf("%s: unsupported: %s", tk.Name, tk.Config.Unsupported)
		}
	}
	// 57 MMLU subjects and 18 other tasks.
	if len(tasks) != 57+18 {
		t.Errorf("%d distinct tasks, want 75: %v", len(tasks), sortedNames(tasks))
	}
}

func sortedNames(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// TestMMLUGroups checks the group tree: mmlu holds the four categories,
// each aggregating acc weighted by size over its subjects.
func TestMMLUGroups(t *testing.T) {
	r := builtin(t)
	sel, err := r.Load([]string{"mmlu"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Members) != 1 || sel.Members[0].Group == nil {
		t.Fatalf("mmlu is not one group: %+v", sel.Members)
	}
	g := sel.Members[0].Group
	wantAgg := []task.AggMetric{{Metric: "acc", Aggregation: "mean", WeightBySize: true, FilterList: []string{"none"}}}
	if !reflect.DeepEqual(g.Aggregate, wantAgg) {
		t.Errorf("mmlu aggregate = %+v, want %+v", g.Aggregate, wantAgg)
	}
	want := []struct {
		name, alias string
		subjects    int
	}{
		{"mmlu_stem", "stem", 19},
		{"mmlu_other", "other", 13},
		{"mmlu_social_sciences", "social sciences", 12},
		{"mmlu_humanities", "humanities", 13},
	}
	if len(g.Members) != len(want) {
		t.Fatalf("mmlu has %d members, want 4", len(g.Members))
	}
	for i, w := range want {
		sub := g.Members[i].Group
		if sub == nil || sub.Name != w.name || sub.Alias != w.alias {
			t.Errorf("member %d = %+v, want group %s (%s)", i, g.Members[i], w.name, w.alias)
			continue
		}
		if !reflect.DeepEqual(sub.Aggregate, wantAgg) {
			t.Errorf("%s aggregate = %+v", sub.Name, sub.Aggregate)
		}
		tasks := sub.AllTasks(true)
		if len(tasks) != w.subjects {
			t.Errorf("%s has %d subjects, want %d", sub.Name, len(tasks), w.subjects)
		}
		for _, tk := range tasks {
			subject := strings.TrimPrefix(tk.Name, "mmlu_")
			c := tk.Config
			if c.DatasetName != subject || c.TaskAlias != subject {
				t.Errorf("%s: dataset_name %q, task_alias %q", tk.Name, c.DatasetName, c.TaskAlias)
			}
			if wantDesc := "The following are multiple choice questions (with answers) about " + strings.ReplaceAll(subject, "_", " ") + ".\n\n"; c.Description != wantDesc {
				t.Errorf("%s: description %q", tk.Name, c.Description)
			}
			if c.Fewshot.Sampler != "first_n" || c.FewshotSplit != "dev" || c.TestSplit != "test" {
				t.Errorf("%s: sampler %q, fewshot_split %q, test_split %q", tk.Name, c.Fewshot.Sampler, c.FewshotSplit, c.TestSplit)
			}
		}
	}
	if n := len(g.AllTasks(true)); n != 57 {
		t.Errorf("mmlu has %d subjects, want 57", n)
	}
	if v := g.Version(); v != 2 && v != int64(2) {
		t.Errorf("mmlu version %#v, want 2", v)
	}
}

// TestTags checks the tags that select several tasks.
func TestTags(t *testing.T) {
	r := builtin(t)
	tests := map[string][]string{
		"ai2_arc":               {"arc_challenge", "arc_easy"},
		"lambada":               {"lambada_openai", "lambada_standard"},
		"truthfulqa":            {"truthfulqa_gen", "truthfulqa_mc1", "truthfulqa_mc2"},
		"chain_of_thought":      {"gsm8k_cot", "gsm8k_cot_self_consistency"},
		"self_consistency":      {"gsm8k_cot_self_consistency"},
		"math_word_problems":    {"gsm8k", "gsm8k_cot_zeroshot"},
		"multiple_choice":       {"hellaswag"},
		"super-glue-lm-eval-v1": {"boolq"},
	}
	checkTags(t, r, tests)
}

// TestUpstreamTags selects lm-eval's own tags from its unmodified YAML
// given as an include path, alone and over the built-in tasks (as
// --include_path does): arc_challenge.yaml and truthfulqa_mc2.yaml declare
// their tags only through include.
func TestUpstreamTags(t *testing.T) {
	needUpstream(t)
	tests := map[string][]string{
		"ai2_arc":    {"arc_challenge", "arc_easy"},
		"truthfulqa": {"truthfulqa_gen", "truthfulqa_mc1", "truthfulqa_mc2"},
	}
	for _, withBuiltin := range []bool{false, true} {
		r := task.NewRegistry()
		if withBuiltin {
			r = builtin(t)
		}
		if err := r.AddDir(upstreamDir); err != nil {
			t.Fatal(err)
		}
		checkTags(t, r, tests)
		// The upstream files, added last, are the ones selected.
		if e, ok := r.Lookup("arc_challenge"); !ok || !strings.HasSuffix(e.File, "arc/arc_challenge.yaml") || !strings.Contains(e.File, "lm-eval-sample") {
			t.Errorf("arc_challenge from %v, want the include path's file", e)
		}
	}
}

func checkTags(t *testing.T, r *task.Registry, tests map[string][]string) {
	t.Helper()
	for tag, want := range tests {
		sel, err := r.Load([]string{tag})
		if err != nil {
			t.Errorf("%s: %v", tag, err)
			continue
		}
		var got []string
		for _, tk := range sel.Tasks() {
			got = append(got, tk.Name)
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tag %s = %v, want %v", tag, got, want)
		}
	}
}

// TestVersions pins metadata.version to lm-eval's for every task.
func TestVersions(t *testing.T) {
	r := builtin(t)
	want := map[string]float64{
		"arc_easy": 1, "arc_challenge": 1, "hellaswag": 1, "lambada_openai": 1,
		"lambada_standard": 1, "wikitext": 2, "winogrande": 1, "boolq": 2,
		"openbookqa": 1, "piqa": 1, "sciq": 1, "mmlu_anatomy": 1,
		"truthfulqa_mc1": 2, "truthfulqa_mc2": 3, "truthfulqa_gen": 3, "gsm8k": 3, "gsm8k_cot": 3,
		"gsm8k_cot_self_consistency": 2, "gsm8k_cot_zeroshot": 3,
	}
	for name, v := range want {
		sel, err := r.Load([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.Tasks()[0].Config.Version(); got != v {
			t.Errorf("%s: version %#v, want %v", name, got, v)
		}
	}
}
