package task

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

const sample = "../../../shared/lm-eval-sample"

func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	d := filepath.Join(sample, sub)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared lm-eval sample not available (%v)", err)
	}
	return d
}

func testConfigs(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	if err := r.AddDir(sharedDir(t, "test_configs")); err != nil {
		t.Fatal(err)
	}
	return r
}

func names(tasks []*Task) []string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.Name)
	}
	return out
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

func loadOne(t *testing.T, r *Registry, name string) *Selection {
	t.Helper()
	sel, err := r.Load([]string{name})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return sel
}

// The expectations of lm-eval's tests/test_task_manager.py on these fixtures.
func TestTestConfigsIndex(t *testing.T) {
	r := testConfigs(t)
	for _, n := range []string{"simple_task", "simple_task_b", "include_task_fs0", "include_task_fs1", "include_task_fs5", "tag_task_1"} {
		if !contains(r.Tasks(), n) {
			t.Errorf("task %s not indexed; tasks: %v", n, r.Tasks())
		}
	}
	for _, n := range []string{"test_group", "include_group", "inline_subgroup_parent", "tag_parent_group", "empty_group"} {
		if !contains(r.Groups(), n) {
			t.Errorf("group %s not indexed", n)
		}
	}
	// include_base.yaml is a task file in its own right, as in lm-eval.
	if !contains(r.Tasks(), "base_task") {
		t.Errorf("base_task not indexed")
	}
	if got := r.Tags(); !contains(got, "test_tag_tasks") {
		t.Errorf("tags %v lack test_tag_tasks", got)
	}
	if e, _ := r.Lookup("test_tag_tasks"); len(e.Tags) != 3 {
		t.Errorf("test_tag_tasks members %v, want 3", e.Tags)
	}
	if !sort.StringsAreSorted(r.Tasks()) {
		t.Error("Tasks not sorted")
	}
}

func TestTestConfigsIncludeOverride(t *testing.T) {
	r := testConfigs(t)
	tk := loadOne(t, r, "include_task_fs5").Tasks()[0]
	c := tk.Config
	if c.NumFewshot == nil || *c.NumFewshot != 5 {
		t.Errorf("num_fewshot %v, want 5", c.NumFewshot)
	}
	if c.DatasetPath != "json" || c.Description != "Five-shot with custom metrics" {
		t.Errorf("dataset_path %q description %q", c.DatasetPath, c.Description)
	}
	if got := c.MetricNames(); strings.Join(got, ",") != "acc,acc_norm" {
		t.Errorf("metrics %v, want acc, acc_norm", got)
	}
	if c.Version() != 1.0 {
		t.Errorf("version %v, want 1.0 (inherited)", c.Version())
	}
}

func TestTestConfigsGroups(t *testing.T) {
	r := testConfigs(t)

	g := loadOne(t, r, "test_group").Members[0].Group
	if got := names(g.AllTasks(false)); strings.Join(got, ",") != "test_group::group_task_fs0,test_group::group_task_fs2" {
		t.Errorf("test_group inline tasks %v", got)
	}
	if n := g.AllTasks(false)[1].Config.NumFewshot; *n != 2 {
		t.Errorf("group_task_fs2 num_fewshot %d", *n)
	}

	g = loadOne(t, r, "tag_subgroup").Members[0].Group
	if got := names(g.AllTasks(false)); strings.Join(got, ",") != "tag_task_1,tag_task_2,tag_task_3" {
		t.Errorf("tag_subgroup tasks %v", got)
	}

	g = loadOne(t, r, "tag_parent_group").Members[0].Group
	if len(g.Members) != 1 || g.Members[0].Group == nil || len(g.Members[0].Group.AllTasks(false)) != 3 {
		t.Errorf("tag_parent_group: want one subgroup of 3 tasks, got %+v", g.Members)
	}

	g = loadOne(t, r, "inline_subgroup_parent").Members[0].Group
	subs := g.Subgroups(false)
	if len(subs) != 2 || subs[0].Name != "inline_subgroup_parent::subgroup_a" || subs[1].Name != "inline_subgroup_parent::subgroup_b" {
		t.Fatalf("inline subgroups %+v", subs)
	}
	for _, s := range subs {
		if len(s.AllTasks(false)) != 1 || len(s.Aggregate) != 1 || !s.Aggregate[0].WeightBySize {
			t.Errorf("subgroup %s: tasks %d aggregate %+v", s.Name, len(s.AllTasks(false)), s.Aggregate)
		}
	}

	g = loadOne(t, r, "group_ref_parent").Members[0].Group
	if subs := g.Subgroups(false); len(subs) != 1 || subs[0].Name != "include_group" {
		t.Fatalf("group_ref_parent children %+v", subs)
	}
	if n := len(g.AllTasks(false)); n != 0 {
		t.Errorf("direct tasks %d, want 0", n)
	}
	all := g.AllTasks(true)
	if len(all) != 3 {
		t.Fatalf("recursive tasks %v, want 3", names(all))
	}
	for _, tk := range all {
		if *tk.Config.NumFewshot != 99 {
			t.Errorf("%s num_fewshot %d, want 99 from the group reference", tk.Name, *tk.Config.NumFewshot)
		}
	}

	for _, tk := range loadOne(t, r, "propagation_group").Tasks() {
		if *tk.Config.NumFewshot != 42 {
			t.Errorf("%s num_fewshot %d, want 42 from the group", tk.Name, *tk.Config.NumFewshot)
		}
	}
	sel, err := r.LoadWith("propagation_group", map[string]any{"num_fewshot": 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range sel.Tasks() {
		if *tk.Config.NumFewshot != 0 {
			t.Errorf("%s num_fewshot %d, want the caller's 0", tk.Name, *tk.Config.NumFewshot)
		}
	}

	sel = loadOne(t, r, "mixed_members_group")
	tasks := map[string]*Task{}
	for _, tk := range sel.Tasks() {
		tasks[tk.Name] = tk
	}
	if tasks["simple_task"] == nil || tasks["simple_task_b"] == nil || *tasks["simple_task_b"].Config.NumFewshot != 7 {
		t.Errorf("mixed members: %v", names(sel.Tasks()))
	}
	var inline *Group
	for _, gg := range sel.Groups() {
		if gg.Name == "mixed_members_group::mixed_inline_sub" {
			inline = gg
		}
	}
	if inline == nil || len(inline.AllTasks(false)) != 1 || inline.Aggregate[0].Metric != "acc" {
		t.Errorf("inline subgroup %+v", inline)
	}

	sel = loadOne(t, r, "tag_task_1")
	if sel2, err := r.Load([]string{"tag_task_1", "test_tag_tasks"}); err != nil || len(sel2.Tasks()) != 3 {
		t.Errorf("a task named and tagged is loaded once: %v %v", names(sel2.Tasks()), err)
	}

	g = loadOne(t, r, "empty_group").Members[0].Group
	if len(g.Members) != 0 || len(g.Aggregate) != 1 {
		t.Errorf("empty_group: members %d aggregate %+v", len(g.Members), g.Aggregate)
	}

	g = loadOne(t, r, "include_group").Members[0].Group
	if g.Alias != "" || g.DisplayName() != "include_group" {
		t.Errorf("alias %q display %q", g.Alias, g.DisplayName())
	}

	// --metadata reaches every group and task.
	r.Metadata = map[string]any{"run_id": "test-123"}
	g = loadOne(t, r, "include_group").Members[0].Group
	if g.Metadata["run_id"] != "test-123" || g.AllTasks(true)[0].Config.Metadata["run_id"] != "test-123" ||
		g.AllTasks(true)[0].Config.Version() != 1.0 {
		t.Errorf("metadata: group %v task %v", g.Metadata, g.AllTasks(true)[0].Config.Metadata)
	}
	r.Metadata = nil
	if err := r.Available("include_group"); err != nil {
		t.Errorf("Available: %v", err)
	}
	if len(r.Entries(KindGroup)) != len(r.Groups()) {
		t.Errorf("Entries(KindGroup) %d, Groups %d", len(r.Entries(KindGroup)), len(r.Groups()))
	}
}

func TestTestConfigsMatch(t *testing.T) {
	r := testConfigs(t)
	got, err := r.Match([]string{"include_task_*", "simple_task"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "include_task_fs0,include_task_fs1,include_task_fs5,simple_task" {
		t.Errorf("match %v", got)
	}
	if _, err := r.Match([]string{"nonexistent_task_xyz", "zz_*"}); err == nil || !strings.Contains(err.Error(), "nonexistent_task_xyz, zz_*") {
		t.Errorf("err %v, want both names", err)
	}
	if got := SplitNames("a,b c ,, d"); strings.Join(got, "|") != "a|b|c|d" {
		t.Errorf("SplitNames %v", got)
	}
}

// Every YAML of the lm-eval sample loads, or is unavailable for want of a
// Python function it names.
func TestSampleTasksLoad(t *testing.T) {
	dir := sharedDir(t, "tasks")
	r := NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	if len(r.Tasks()) < 80 {
		t.Fatalf("only %d tasks indexed", len(r.Tasks()))
	}
	loaded, unavailable := 0, map[string]string{}
	for _, name := range r.Tasks() {
		sel, err := r.Load([]string{name})
		var ue *UnavailableError
		switch {
		case err == nil:
			if len(sel.Tasks()) != 1 {
				t.Errorf("%s: %d tasks", name, len(sel.Tasks()))
			}
			loaded++
		case errors.As(err, &ue) && len(ue.Missing) > 0:
			unavailable[name] = ue.Error()
		default:
			t.Errorf("%s: %v", name, err)
		}
	}
	want := "task hellaswag (" + filepath.Join(mustAbs(t, dir), "hellaswag", "hellaswag.yaml") + ") is unavailable: needs Python function utils.process_docs"
	if unavailable["hellaswag"] != want {
		t.Errorf("hellaswag: %q\nwant %q", unavailable["hellaswag"], want)
	}
	for _, n := range []string{"winogrande", "truthfulqa_mc2", "wikitext"} {
		if unavailable[n] == "" {
			t.Errorf("%s should need Python functions", n)
		}
	}
	for _, n := range []string{"arc_easy", "mmlu_anatomy", "gsm8k", "lambada_openai", "piqa", "boolq", "belebele_eng_Latn"} {
		if _, bad := unavailable[n]; bad || !contains(r.Tasks(), n) {
			t.Errorf("%s should load", n)
		}
	}
	t.Logf("%d tasks load, %d need Python functions", loaded, len(unavailable))

	mc := loadOne(t, r, "mmlu_anatomy").Tasks()[0].Config
	if mc.FewshotSplit != "dev" || mc.Fewshot.Sampler != "first_n" || mc.TaskAlias != "anatomy" ||
		mc.Description != "The following are multiple choice questions (with answers) about anatomy.\n\n" {
		t.Errorf("mmlu_anatomy config %+v", mc)
	}

	// Groups: mmlu nests four category groups over tags.
	g := loadOne(t, r, "mmlu").Members[0].Group
	if n := len(g.AllTasks(true)); n != 57 {
		t.Errorf("mmlu has %d tasks, want 57", n)
	}
	if subs := g.Subgroups(false); len(subs) != 4 || subs[0].DisplayName() != "stem" {
		t.Errorf("mmlu subgroups %+v", subs)
	}

	_, err := r.Load([]string{"blimp"})
	var mm *MissingMembersError
	if !errors.As(err, &mm) {
		t.Fatalf("blimp: err %v, want MissingMembersError", err)
	}
	if len(mm.Missing) != 66 || mm.Missing[0] != "blimp_anaphor_gender_agreement" || contains(mm.Missing, "blimp_adjunct_island") {
		t.Errorf("blimp missing %d: %v", len(mm.Missing), mm.Missing)
	}
	if !strings.Contains(err.Error(), "group blimp (") || !strings.Contains(err.Error(), "66 member(s) not found: blimp_anaphor_gender_agreement, ") {
		t.Errorf("message %q", err)
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestYAMLSemantics(t *testing.T) {
	fsys := fstest.MapFS{
		"a/grand.yaml":       {Data: []byte("output_type: generate_until\nmetric_list:\n  - metric: exact_match\nnum_fewshot: 1\n")},
		"a/parent.yaml":      {Data: []byte("include: grand.yaml\ndataset_path: parent_dataset\nnum_fewshot: 2\n")},
		"a/other.yaml":       {Data: []byte("dataset_path: other\ndescription: other\n")},
		"a/child.yaml":       {Data: []byte("include: [parent.yaml, other.yaml]\ntask: nested_task\nnum_fewshot: 3\ntest_split: test\n")},
		"a/cyc1.yaml":        {Data: []byte("include: cyc2.yaml\ntask: cyc1\n")},
		"a/cyc2.yaml":        {Data: []byte("include: cyc1.yaml\ntask: cyc2\n")},
		"b/func.yaml":        {Data: []byte("task: func_task\ndataset_path: d\ntest_split: t\nprocess_docs: !function utils.my_processor\ndoc_to_text: !function utils.missing_fn\n")},
		"b/typo.yaml":        {Data: []byte("task: typo_task\ndataset_path: d\ntest_split: t\ndoc_to_txt: x\nfewshot_config:\n  sampler: first_n\n  sample: 3\n")},
		"b/py.yaml":          {Data: []byte("task: py_task\nclass: !function mod.Cls\ntag: [pytag]\n")},
		"b/prompt.yaml":      {Data: []byte("task: prompt_task\ndataset_path: d\ntest_split: t\nuse_prompt: promptsource:GPT-3 Style\n")},
		"b/choice.yaml":      {Data: []byte("task: choice_task\ndataset_path: d\ntest_split: t\ndoc_to_choice:\n  z: first\n  a: second\n")},
		"c/dup.yaml":         {Data: []byte("task: nested_task\ndataset_path: dup\n")},
		"__pycache__/x.yaml": {Data: []byte("task: should_ignore\n")},
		"a/notes.txt":        {Data: []byte("task: not_yaml\n")},
		"d/tl.yaml":          {Data: []byte("dataset_path: shared\ntest_split: test\ntag: tl_tag\ntask_list:\n  - tl_one\n  - task: tl_two\n    dataset_name: two\n")},
		"d/quoted.yaml":      {Data: []byte("\"task\": \"quoted_task\"\n\"tag\": \"qtag\"\n\"dataset_path\": \"q\"\n\"test_split\": \"t\"\n")},
	}
	RegisterProcessDocs(helperAt("b", "utils.my_processor"), func(d []Doc) ([]Doc, error) { return d, nil })
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	warn := strings.Join(r.Warnings(), "\n")
	if !strings.Contains(warn, `Duplicate task name "nested_task": c/dup.yaml overrides a/child.yaml`) {
		t.Errorf("warnings lack the duplicate: %s", warn)
	}
	if contains(r.All(), "should_ignore") || contains(r.All(), "not_yaml") {
		t.Errorf("indexed ignored files: %v", r.All())
	}
	if e, _ := r.Lookup("tl_two"); e == nil || e.Kind != KindTask {
		t.Errorf("task_list entries not indexed: %v", r.All())
	}
	if e, _ := r.Lookup("qtag"); e == nil || e.Kind != KindTag || e.Tags[0] != "quoted_task" {
		t.Errorf("quoted keys not indexed: %v", r.All())
	}

	// Includes: recursive, the first listed wins, the child wins over all.
	cfg, err := loadYAML(fileRef{src: r.sources[0], path: "a/child.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg["task"] != "nested_task" || cfg["num_fewshot"] != 3 || cfg["dataset_path"] != "parent_dataset" ||
		cfg["output_type"] != "generate_until" || cfg["description"] != "other" || cfg["include"] != nil {
		t.Errorf("merged config %v", cfg)
	}
	if _, err := loadYAML(fileRef{src: r.sources[0], path: "a/cyc1.yaml"}, nil); !errors.Is(err, ErrIncludeCycle) {
		t.Errorf("cycle: %v", err)
	}

	tl := loadOne(t, r, "tl_two").Tasks()[0].Config
	if tl.DatasetName != "two" || tl.DatasetPath != "shared" || tl.Tags[0] != "tl_tag" {
		t.Errorf("task_list item config %+v", tl)
	}

	_, err = r.Load([]string{"func_task"})
	var ue *UnavailableError
	if !errors.As(err, &ue) || strings.Join(ue.Missing, ",") != "utils.missing_fn" || ue.Reason != "needs Python function utils.missing_fn" {
		t.Errorf("func_task: %v", err)
	}
	delete(fsys, "b/func.yaml")

	sel := loadOne(t, r, "typo_task")
	_ = sel
	warn = strings.Join(r.Warnings(), "\n")
	for _, w := range []string{`b/typo.yaml: unknown key "doc_to_txt" in task config`, `b/typo.yaml: unknown key "sample" in fewshot_config`} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
	for name, want := range map[string]string{
		"py_task":     "implemented by a Python class",
		"pytag":       "implemented by a Python class",
		"prompt_task": "promptsource prompts are not supported",
	} {
		_, err := r.Load([]string{name})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", name, err, want)
		}
	}
	ch := loadOne(t, r, "choice_task").Tasks()[0].Config
	if fmt.Sprint(ch.DocToChoice) != "[first second]" {
		t.Errorf("dict doc_to_choice %v, want its values in order", ch.DocToChoice)
	}
}

func TestLookupHook(t *testing.T) {
	RegisterUnavailable(helperAt("lf/x", "utils.f"), "inner")
	RegisterUnavailable(helperAt("x", "utils.f"), "outer")
	RegisterUnavailable(helperAt("", "utils.g"), "any")
	for _, c := range []struct{ dir, name, want string }{
		{"/abs/tasks/lf/x", "utils.f", "inner"},
		{"lf/x", "utils.f", "inner"},
		{"other/x", "utils.f", "outer"},
		{"x", "utils.f", "outer"},
		{"xx", "utils.f", ""},
		{"anything", "utils.g", "any"},
	} {
		got, ok := LookupHook(c.dir, c.name)
		if (c.want == "") == ok || (ok && got.Unavailable != c.want) {
			t.Errorf("LookupHook(%q, %q) = %v, %v; want %q", c.dir, c.name, got, ok, c.want)
		}
	}
}

// BenchmarkIndex indexes 3,000 task files (lm-eval has about as many),
// each including its directory's shared template, as mmlu's subjects do.
func BenchmarkIndex(b *testing.B) {
	fsys := fstest.MapFS{}
	for d := 0; d < 100; d++ {
		fsys[fmt.Sprintf("bench%d/_template_yaml", d)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"dataset_path: bench/subject_%d\ntest_split: test\nfewshot_split: dev\noutput_type: multiple_choice\ndoc_to_choice: [\"A\", \"B\", \"C\", \"D\"]\ndoc_to_target: answer\nmetadata:\n  version: 1.0\n", d))}
	}
	for i := 0; i < 3000; i++ {
		fsys[fmt.Sprintf("bench%d/task_%d.yaml", i%100, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"include: _template_yaml\ntask: bench_task_%d\ntag:\n  - bench_tag_%d\ndataset_name: subset_%d\ndescription: \"The following are questions about subject %d.\\n\\n\"\ndoc_to_text: \"{{question.strip()}}\\nA. {{choices[0]}}\\nAnswer:\"\nmetric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n", i, i%10, i, i))}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := NewRegistry()
		if err := r.AddFS("", fsys); err != nil {
			b.Fatal(err)
		}
		if len(r.Tasks()) != 3000 {
			b.Fatal(len(r.Tasks()))
		}
	}
}

// TestIndexIncludes checks that the index sees each file with its includes
// merged in, as lm-eval's TaskManager does: tags and task names arrive
// through include, a file's own key replaces the included one, and the
// first of several includes wins.
func TestIndexIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"arc/easy.yaml":         {Data: []byte("tag:\n  - arc_tag\ntask: easy\ndataset_path: d\n")},
		"arc/challenge.yaml":    {Data: []byte("include: easy.yaml\ntask: challenge\n")},
		"arc/retag.yaml":        {Data: []byte("include: easy.yaml\ntask: retagged\ntag: other_tag\n")},
		"arc/renamed.yaml":      {Data: []byte("include: challenge.yaml\ndataset_name: x\n")},
		"tpl/_template_yaml":    {Data: []byte("tag: tpl_tag\noutput_type: multiple_choice\n")},
		"tpl/_second_yaml":      {Data: []byte("tag: second_tag\ntask: from_second\n")},
		"tpl/sub/s1.yaml":       {Data: []byte("include: ../_template_yaml\ntask: s1\n")},
		"tpl/s2.yaml":           {Data: []byte("include: [_template_yaml, _second_yaml]\n")},
		"old/grouped.yaml":      {Data: []byte("include: ../arc/easy.yaml\ngroup: old_group\ntask: grouped\n")},
		"bad/missing.yaml":      {Data: []byte("include: nowhere.yaml\ntask: lost\n")},
		"bad/cyc1.yaml":         {Data: []byte("include: cyc2.yaml\ntask: cyc1\n")},
		"bad/cyc2.yaml":         {Data: []byte("include: cyc1.yaml\ntask: cyc2\n")},
		"grp/_base_group_yaml":  {Data: []byte("group: inherited_group\ntask:\n  - easy\n")},
		"grp/group.yaml":        {Data: []byte("include: _base_group_yaml\naggregate_metric_list:\n  - metric: acc\n")},
		"grp/task_of_grp.yaml":  {Data: []byte("include: _base_group_yaml\ngroup: own_group\n")},
		"grp/flow.yaml":         {Data: []byte("{task: flow_task, include: ../arc/easy.yaml}\n")},
		"grp/flow_include.yaml": {Data: []byte("include: flow.yaml\ntask: flow_child\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	tags := []struct {
		tag  string
		want []string
	}{
		// renamed.yaml inherits the name "challenge" and replaces
		// challenge.yaml's entry, as a later duplicate does.
		{"arc_tag", []string{"challenge", "easy", "flow_child", "flow_task", "grouped"}},
		{"other_tag", []string{"retagged"}},
		{"tpl_tag", []string{"from_second", "s1"}},
		{"old_group", []string{"grouped"}},
	}
	for _, c := range tags {
		e, ok := r.Lookup(c.tag)
		if !ok || e.Kind != KindTag {
			t.Errorf("tag %s not indexed; all: %v", c.tag, r.All())
			continue
		}
		got := append([]string(nil), e.Tags...)
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("tag %s = %v, want %v", c.tag, got, c.want)
		}
	}
	if _, ok := r.Lookup("second_tag"); ok {
		t.Error("second_tag indexed, but the first include's tag wins")
	}
	if e, _ := r.Lookup("challenge"); e == nil || e.File != "arc/renamed.yaml" {
		t.Errorf("challenge = %+v, want the later arc/renamed.yaml, which inherits the name", e)
	}
	if e, _ := r.Lookup("retagged"); e == nil || strings.Join(e.Tags, ",") != "other_tag" {
		t.Errorf("retagged tags = %v, want only its own other_tag", e)
	}
	for name, file := range map[string]string{"inherited_group": "grp/group.yaml", "own_group": "grp/task_of_grp.yaml"} {
		if e, _ := r.Lookup(name); e == nil || e.Kind != KindGroup || e.File != file {
			t.Errorf("group %s = %+v, want from %s", name, e, file)
		}
	}
	warn := strings.Join(r.Warnings(), "\n")
	for _, w := range []string{"bad/missing.yaml: skipped: include nowhere.yaml", "bad/cyc1.yaml: skipped: include cyc2.yaml: include cyc1.yaml: include cycle"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
	for _, n := range []string{"lost", "cyc1", "cyc2"} {
		if _, ok := r.Lookup(n); ok {
			t.Errorf("%s indexed despite its broken include", n)
		}
	}
	// The index and the loaded config agree on the inherited tag.
	if tk := loadOne(t, r, "s1").Tasks()[0]; strings.Join(tk.Config.Tags, ",") != "tpl_tag" {
		t.Errorf("s1 config tags %v", tk.Config.Tags)
	}
}

// TestSampleIncludedTags selects lm-eval's tags whose members declare them
// only through include (arc_challenge, truthfulqa_mc2).
func TestSampleIncludedTags(t *testing.T) {
	dir := sharedDir(t, "tasks")
	r := NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	for tag, want := range map[string]string{
		"ai2_arc":    "arc_challenge,arc_easy",
		"truthfulqa": "truthfulqa_gen,truthfulqa_mc1,truthfulqa_mc2",
	} {
		e, ok := r.Lookup(tag)
		if !ok {
			t.Errorf("tag %s not indexed", tag)
			continue
		}
		got := append([]string(nil), e.Tags...)
		sort.Strings(got)
		if strings.Join(got, ",") != want {
			t.Errorf("tag %s = %v, want %s", tag, got, want)
		}
	}
}
