package task

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lmeval/lmeval/python/pyrand"
)

const sharedTasks = "../../../shared/lm-eval/lm_eval/tasks"

// groupOf returns two file:function names of one group of the generated
// table with distinct files, and the group's sha256.
func twoOfAGroup(t *testing.T, function string) (a, b string) {
	t.Helper()
	byGroup := map[int][]string{}
	for k, s := range pySources {
		if strings.HasSuffix(k, ":"+function) {
			byGroup[s.Group] = append(byGroup[s.Group], k)
		}
	}
	for _, ks := range byGroup {
		if len(ks) >= 2 {
			return ks[0], ks[1]
		}
	}
	t.Fatalf("no group of %s with two files", function)
	return "", ""
}

func TestRegisterServesItsGroupOnly(t *testing.T) {
	a, b := twoOfAGroup(t, "process_biology")
	file, fn, _ := strings.Cut(a, ":")
	marker := ProcessDocsFunc(func(d []Doc) ([]Doc, error) { return d, nil })
	RegisterProcessDocs(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256}, marker)
	for _, k := range []string{a, b} {
		f, name, _ := strings.Cut(k, ":")
		dir := "/somewhere/lm_eval/tasks/" + strings.TrimSuffix(f, "/utils.py")
		mod := strings.TrimSuffix(filepath.Base(f), ".py")
		if _, ok := LookupHook(dir, mod+"."+name); !ok {
			t.Errorf("%s: not served by the port of %s", k, a)
		}
	}
	// The same name in a directory of another group is not served.
	for k, s := range pySources {
		if strings.HasSuffix(k, ":"+fn) && s.Group != pySources[a].Group {
			f, _, _ := strings.Cut(k, ":")
			if _, ok := LookupHook(filepath.Dir(f), strings.TrimSuffix(filepath.Base(f), ".py")+"."+fn); ok {
				t.Errorf("%s (another source) is served by the port of %s", k, a)
			}
		}
	}
	if _, ok := LookupHook("unrelated/dir", "utils."+fn); ok {
		t.Errorf("unrelated/dir/utils.py:%s is served", fn)
	}
}

func TestRegisterRejectsAnotherSource(t *testing.T) {
	a, _ := twoOfAGroup(t, "process_business")
	file, fn, _ := strings.Cut(a, ":")
	defer func() {
		if recover() == nil {
			t.Error("a port with a wrong sha256 was accepted")
		}
	}()
	RegisterDocFunc(Helper{File: file, Function: fn, SHA256: strings.Repeat("0", 64)}, nil)
}

func TestHelperFile(t *testing.T) {
	for _, c := range []struct{ dir, name, file, fn string }{
		{"mmlu_pro", "utils.doc_to_text", "mmlu_pro/utils.py", "doc_to_text"},
		{"/x/tasks/bbh/zeroshot", "utils.MultiChoiceRegexFilter", "/x/tasks/bbh/zeroshot/utils.py", "MultiChoiceRegexFilter"},
		{"a", "pkg.mod.fn", "a/pkg/mod.py", "fn"},
		{"", "utils.fn", "utils.py", "fn"},
	} {
		file, fn := helperFile(c.dir, c.name)
		if file != c.file || fn != c.fn {
			t.Errorf("helperFile(%q, %q) = %q, %q; want %q, %q", c.dir, c.name, file, fn, c.file, c.fn)
		}
	}
}

// A file on disk that is not the table's gets a warning naming the file
// and function when the function changed.
func TestCheckStale(t *testing.T) {
	a, _ := twoOfAGroup(t, "process_chemistry")
	file, fn, _ := strings.Cut(a, ":")
	RegisterProcessDocs(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256}, func(d []Doc) ([]Doc, error) { return d, nil })
	dir := filepath.Join(t.TempDir(), filepath.Dir(file))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "def process_docs(dataset, subject):\n    return dataset\n\n\n" + fn + " = partial(process_docs, subject=\"changed\")\n"
	if err := os.WriteFile(filepath.Join(dir, "utils.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w := checkStale(dir, "utils."+fn)
	if !strings.Contains(w, "utils.py") || !strings.Contains(w, "function "+fn) {
		t.Fatalf("checkStale = %q, want a warning naming the file and %s", w, fn)
	}
	if again := checkStale(dir, "utils."+fn); again != w {
		t.Errorf("second check = %q, want the same warning", again)
	}
	r := NewRegistry()
	missing, stale := map[string]bool{}, map[string]bool{}
	resolveFuncs(FuncRef{Dir: dir, Name: "utils." + fn}, missing, stale, map[string]string{})
	if !stale[w] || len(missing) > 0 {
		t.Errorf("resolveFuncs: stale %v missing %v", stale, missing)
	}
	_ = r
}

// PySource finds the same source text as ast.get_source_segment for
// the definitions in lm-eval's own files (so an unchanged function in a
// changed file is not reported stale).
func TestPyDefinitionAgreesWithAST(t *testing.T) {
	if _, err := os.Stat(sharedTasks); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	n, bad := 0, 0
	for k, s := range pySources {
		file, fn, _ := strings.Cut(k, ":")
		data, err := os.ReadFile(filepath.Join(sharedTasks, file))
		if err != nil {
			continue
		}
		n++
		if changed := staleParts(string(data), fn, s); len(changed) > 0 {
			bad++
			t.Logf("%s: %v extracted differently from the ast segment", k, changed)
		}
	}
	if n == 0 {
		t.Skip("no helper file found")
	}
	// Definitions ending in a trailing comment cannot be told apart from
	// code without a Python tokenizer; they read as changed (a false
	// warning, never a missed one). Keep them rare.
	if bad*100 > n {
		t.Errorf("%d of %d definitions extracted differently from ast", bad, n)
	}
}

// A file whose path ends with a registered port's file but is itself
// another helper of lm-eval's tree (llama3/instruct/mmlu_pro/utils.py
// against mmlu_pro/utils.py) is not served by that port.
func TestLookupPrefersTheTablesLongerFile(t *testing.T) {
	var a, b string
	for ka, sa := range pySources {
		for kb, sb := range pySources {
			if strings.HasSuffix(kb, "/"+ka) && sa.Group != sb.Group {
				a, b = ka, kb
			}
		}
		if a != "" {
			break
		}
	}
	if a == "" {
		t.Skip("no nested helper of another source in the table")
	}
	file, fn, _ := strings.Cut(a, ":")
	if _, ok := hooks[a]; !ok {
		RegisterDocFunc(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256}, func(Doc) (any, error) { return nil, nil })
	}
	mod := strings.TrimSuffix(filepath.Base(file), ".py") + "." + fn
	if _, ok := LookupHook("/x/lm_eval/tasks/"+filepath.Dir(file), mod); !ok {
		t.Errorf("%s is not served by its own port", a)
	}
	bf, _, _ := strings.Cut(b, ":")
	if _, ok := LookupHook("/x/lm_eval/tasks/"+filepath.Dir(bf), mod); ok {
		t.Errorf("%s (another source) is served by the port of %s", b, a)
	}
}

// TestUnavailableHelperSaysWhy: a helper registered as Unavailable makes
// its tasks unavailable: its reason comes first, then the functions that
// have no port.
func TestUnavailableHelperSaysWhy(t *testing.T) {
	RegisterUnavailable(helperAt("unav", "utils.judge"), "it asks a hosted judge model")
	r := NewRegistry()
	if err := r.AddFS("mem", fstest.MapFS{
		"unav/t.yaml": {Data: []byte("task: unav_task\ndataset_path: d\ntest_split: t\nprocess_results: !function utils.judge\ndoc_to_text: !function utils.other\n")},
	}); err != nil {
		t.Fatal(err)
	}
	_, err := r.Load([]string{"unav_task"})
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("unav_task: %v, want an UnavailableError", err)
	}
	if want := "utils.judge: it asks a hosted judge model; needs Python function utils.other"; ue.Reason != want {
		t.Errorf("reason %q\nwant %q", ue.Reason, want)
	}
}

func TestUnavailableIf(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.yaml": "task: plan_easy\ndataset_path: x\ndataset_name: easy\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\nprocess_results: !function plan_utils.score\n",
		"b.yaml": "task: plan_hard\ndataset_path: x\ndataset_name: hard\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\nprocess_results: !function plan_utils.score\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	port := ProcessResultsFunc(func(Doc, []any) (map[string]any, error) { return map[string]any{"score": 1.0}, nil })
	h := helperAt(dir, "plan_utils.score")
	RegisterProcessResults(h, port)
	RegisterUnavailableIf(h, "it runs a planner", func(cfg map[string]any) bool { return cfg["dataset_name"] == "hard" })
	r := NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	sel, err := r.Load([]string{"plan_easy"})
	if err != nil {
		t.Fatalf("plan_easy: %v", err)
	}
	if f := sel.Tasks()[0].Config.ProcessResults; f == nil {
		t.Fatal("plan_easy: no process_results")
	} else if f.Hook.ProcessResults == nil {
		t.Fatalf("plan_easy: process_results is a %s hook, want the port", f.Hook.Kind)
	}
	var ue *UnavailableError
	if _, err := r.Load([]string{"plan_hard"}); !errors.As(err, &ue) || ue.Reason != "plan_utils.score: it runs a planner" {
		t.Fatalf("plan_hard: %v, want unavailable", err)
	}
}

// helperAt is the helper `!function name` in a YAML file of directory dir
// names, with no recorded source (lmeval's own, as tests register them).
func helperAt(dir, name string) Helper {
	file, fn := helperFile(dir, name)
	return Helper{File: file, Function: fn}
}

// Registrations are checked when they are made, and a bad one panics
// naming the helper's file:function.
func TestRegisterChecks(t *testing.T) {
	a, _ := twoOfAGroup(t, "process_physics") // lm-eval's YAML: process_docs
	file, fn, _ := strings.Cut(a, ":")
	sha := pySources[a].SHA256
	doc := DocFunc(func(Doc) (any, error) { return "", nil })
	docs := ProcessDocsFunc(func(d []Doc) ([]Doc, error) { return d, nil })
	RegisterDocFunc(helperAt("checks", "utils.dup"), doc)
	for _, c := range []struct {
		name     string
		register func()
		want     string
	}{
		{"another kind than lm-eval's YAML uses", func() { RegisterDocFunc(Helper{file, fn, sha}, doc) },
			a + "): lm-eval's YAML uses it as process_docs (process_docs:), not as a doc_to_* hook"},
		{"no sha256 for a helper of lm-eval's", func() { RegisterProcessDocs(Helper{File: file, Function: fn}, docs) },
			a + `): sha256 ""`},
		{"no function", func() { RegisterDocFunc(helperAt("checks", "utils.nil"), nil) },
			"RegisterDocFunc(checks/utils.py:nil): incomplete registration"},
		{"no name", func() { RegisterProcessDocs(Helper{File: "checks/utils.py"}, docs) },
			"RegisterProcessDocs(checks/utils.py:): incomplete registration"},
		{"MapDocs with two functions", func() {
			RegisterMapDocs(helperAt("checks", "utils.two"), MapDocs{Fn: docs, FnRand: func(d []Doc, _ *pyrand.Rand) ([]Doc, error) { return d, nil }})
		}, "RegisterProcessDocs(checks/utils.py:two): incomplete registration"},
		{"duplicate", func() { RegisterDocFunc(helperAt("checks", "utils.dup"), doc) },
			"checks/utils.py:dup): duplicate port"},
		{"condition before its port", func() {
			RegisterUnavailableIf(helperAt("checks", "utils.cond"), "why", func(map[string]any) bool { return true })
		}, "register the helper's port first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, c.want) {
					t.Errorf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.register()
		})
	}
	if _, ok := LookupHook("lm_eval/tasks/"+filepath.Dir(file), "utils."+fn); ok {
		t.Errorf("%s: a rejected registration serves it", a)
	}
}

// A `!function` used as another kind than its port's is an error naming
// both, when the task is built.
func TestHookKindMismatch(t *testing.T) {
	RegisterDocFunc(helperAt("kindmm", "utils.text"), func(Doc) (any, error) { return "x", nil })
	r := NewRegistry()
	if err := r.AddFS("", fstest.MapFS{"kindmm/k.yaml": {Data: []byte("task: kindmm\ndataset_path: x\ntest_split: test\n" +
		"process_docs: !function utils.text\ndoc_to_text: q\ndoc_to_target: a\n")}}); err != nil {
		t.Fatal(err)
	}
	tk := loadOne(t, r, "kindmm").Tasks()[0]
	err := tk.BuildRequests(context.Background(), BuildOptions{Loader: func(context.Context, DatasetSpec, string) ([]Doc, error) {
		return []Doc{{"q": "q", "a": "a"}}, nil
	}})
	if err == nil || !strings.Contains(err.Error(), "utils.text: the port of kindmm/utils.py:text is registered as a doc_to_* hook, not process_docs") {
		t.Errorf("Build: %v", err)
	}
}
