package task

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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

func TestRegisterHelperServesItsGroupOnly(t *testing.T) {
	a, b := twoOfAGroup(t, "process_biology")
	file, fn, _ := strings.Cut(a, ":")
	marker := ProcessDocsFunc(func(d []Doc) ([]Doc, error) { return d, nil })
	RegisterHelper(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256, Fn: marker})
	for _, k := range []string{a, b} {
		f, name, _ := strings.Cut(k, ":")
		dir := "/somewhere/lm_eval/tasks/" + strings.TrimSuffix(f, "/utils.py")
		mod := strings.TrimSuffix(filepath.Base(f), ".py")
		if _, ok := LookupFunction(dir, mod+"."+name); !ok {
			t.Errorf("%s: not served by the port of %s", k, a)
		}
	}
	// The same name in a directory of another group is not served.
	for k, s := range pySources {
		if strings.HasSuffix(k, ":"+fn) && s.Group != pySources[a].Group {
			f, _, _ := strings.Cut(k, ":")
			if _, ok := LookupFunction(filepath.Dir(f), strings.TrimSuffix(filepath.Base(f), ".py")+"."+fn); ok {
				t.Errorf("%s (another source) is served by the port of %s", k, a)
			}
		}
	}
	if _, ok := LookupFunction("unrelated/dir", "utils."+fn); ok {
		t.Errorf("unrelated/dir/utils.py:%s is served", fn)
	}
}

func TestRegisterHelperRejectsAnotherSource(t *testing.T) {
	a, _ := twoOfAGroup(t, "process_business")
	file, fn, _ := strings.Cut(a, ":")
	defer func() {
		if recover() == nil {
			t.Error("a port with a wrong sha256 was accepted")
		}
	}()
	RegisterHelper(Helper{File: file, Function: fn, SHA256: strings.Repeat("0", 64), Fn: DocFunc(nil)})
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
	RegisterHelper(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256, Fn: ProcessDocsFunc(func(d []Doc) ([]Doc, error) { return d, nil })})
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

// pyDefinition finds the same source text as ast.get_source_segment for
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
	if _, ok := helpers[a]; !ok {
		RegisterHelper(Helper{File: file, Function: fn, SHA256: pySources[a].SHA256, Fn: DocFunc(func(Doc) (any, error) { return nil, nil })})
	}
	mod := strings.TrimSuffix(filepath.Base(file), ".py") + "." + fn
	if _, ok := LookupFunction("/x/lm_eval/tasks/"+filepath.Dir(file), mod); !ok {
		t.Errorf("%s is not served by its own port", a)
	}
	bf, _, _ := strings.Cut(b, ":")
	if _, ok := LookupFunction("/x/lm_eval/tasks/"+filepath.Dir(bf), mod); ok {
		t.Errorf("%s (another source) is served by the port of %s", b, a)
	}
}

// TestUnavailableHelperSaysWhy: a helper registered as Unavailable makes
// its tasks unavailable: its reason comes first, then the functions that
// have no port.
func TestUnavailableHelperSaysWhy(t *testing.T) {
	RegisterFunction("unav", "utils.judge", Unavailable{Reason: "it asks a hosted judge model"})
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
	RegisterFunction(dir, "plan_utils.score", Unavailable{Reason: "it runs a planner", Port: port,
		If: func(cfg map[string]any) bool { return cfg["dataset_name"] == "hard" }})
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
	} else if _, ok := f.Fn.(ProcessResultsFunc); !ok {
		t.Fatalf("plan_easy: process_results is %T, want the port", f.Fn)
	}
	var ue *UnavailableError
	if _, err := r.Load([]string{"plan_hard"}); !errors.As(err, &ue) || ue.Reason != "plan_utils.score: it runs a planner" {
		t.Fatalf("plan_hard: %v, want unavailable", err)
	}
}
