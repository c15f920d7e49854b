package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	_ "github.com/lmeval/lmeval/ports/all"
)

// scriptedLM answers each generation with the first answer whose keys
// the prompt all contains.
type scriptedLM struct {
	model.LM
	answers []scripted
}

type scripted struct {
	keys []string
	out  string
}

func (s *scriptedLM) GenerateUntil(_ context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i, r := range reqs {
	answers:
		for _, a := range s.answers {
			for _, k := range a.keys {
				if !strings.Contains(r.Context, k) {
					continue answers
				}
			}
			out[i] = a.out
			break
		}
	}
	return out, nil
}

// codeTaskDir writes wrapper YAML including lm-eval's humaneval and mbpp
// files over local documents in the datasets' schemas.
func codeTaskDir(t *testing.T) string {
	t.Helper()
	tree, err := filepath.Abs("../../shared/lm-eval/lm_eval/tasks")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tree); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	write := func(name string, v any) {
		var b []byte
		switch x := v.(type) {
		case string:
			b = []byte(x)
		case []map[string]any:
			for _, d := range x {
				line, _ := json.Marshal(d)
				b = append(append(b, line...), '\n')
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("humaneval.jsonl", []map[string]any{
		{"task_id": "HumanEval/0", "prompt": "def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n", "entry_point": "add",
			"canonical_solution": "    return a + b\n", "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n"},
		{"task_id": "HumanEval/1", "prompt": "def neg(a):\n    \"\"\"Negate.\"\"\"\n", "entry_point": "neg",
			"canonical_solution": "    return -a\n", "test": "def check(candidate):\n    assert candidate(2) == -2\n"},
		{"task_id": "HumanEval/2", "prompt": "def spin():\n    \"\"\"Return 1.\"\"\"\n", "entry_point": "spin",
			"canonical_solution": "    return 1\n", "test": "def check(candidate):\n    assert candidate() == 1\n"},
	})
	write("mbpp.jsonl", []map[string]any{
		{"task_id": 11, "text": "Write a function to double a number.", "code": "def double(x):\n    return 2 * x",
			"test_list": []string{"assert double(1) == 2", "assert double(2) == 4", "assert double(0) == 0"}},
		{"task_id": 12, "text": "Write a function to square a number.", "code": "def square(x):\n    return x * x",
			"test_list": []string{"assert square(1) == 1", "assert square(2) == 4", "assert square(3) == 9"}},
	})
	for _, c := range []struct{ task, file, data string }{
		{"humaneval", "humaneval/humaneval.yaml", "humaneval.jsonl"},
		{"humaneval_instruct", "humaneval/humaneval_instruct.yaml", "humaneval.jsonl"},
		{"mbpp", "mbpp/mbpp.yaml", "mbpp.jsonl"},
		{"mbpp_instruct", "mbpp/mbpp_instruct.yaml", "mbpp.jsonl"},
	} {
		write(c.task+"_local.yaml", "include: "+filepath.Join(tree, c.file)+"\ntask: "+c.task+"_local\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n    test: "+filepath.Join(dir, c.data)+"\n")
	}
	return dir
}

// TestCodeExecutionTasks runs humaneval and mbpp (plain and instruct)
// over local documents with scripted answers: one right, one wrong and
// one looping forever for humaneval; one right and one wrong for mbpp.
func TestCodeExecutionTasks(t *testing.T) {
	dir := codeTaskDir(t)
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	lm := &scriptedLM{answers: []scripted{
		// humaneval_instruct: the filter cuts at the first ```.
		{[]string{"Write a solution", "Add two numbers."}, "    return a + b\n```\nDone."},
		{[]string{"Add two numbers."}, "    return a + b\n"},
		{[]string{"Negate."}, "    return a\n"},
		{[]string{"Return 1."}, "    while True:\n        pass\n"},
		// mbpp_instruct: extract_code_blocks of "```" + the answer (a
		// leading word would be taken for the language tag, as in lm-eval).
		{[]string{"task:\nWrite a function to double"}, "\ndef double(x):\n    return 2 * x\n```\nThat is all."},
		{[]string{"task:\nWrite a function to square"}, "\ndef square(x):\n    return x + x\n```"},
		{[]string{"task: Write a function to double"}, "def double(x):\n    return 2 * x\n"},
		{[]string{"task: Write a function to square"}, "def square(x):\n    return x + x\n"},
	}}
	tasks := []string{"humaneval_local", "humaneval_instruct_local", "mbpp_local", "mbpp_instruct_local"}
	layer := func(confirm bool) *config.Config {
		v := map[string]any{"model": "dummy", "tasks": tasks, "bootstrap_iters": "0"}
		if confirm {
			v["confirm_run_unsafe_code"] = "true"
		}
		cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: v})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}

	// Without consent, nothing runs and every unsafe task is named.
	_, err = evaluate(context.Background(), layer(false), lm, WithRegistry(reg))
	if err == nil {
		t.Fatal("unsafe tasks ran without --confirm_run_unsafe_code")
	}
	for _, name := range tasks {
		if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "--confirm_run_unsafe_code") {
			t.Errorf("error %q does not name %s and the flag", err, name)
		}
	}

	// No interpreter: a clear error before anything is generated.
	t.Setenv("LMEVAL_PYTHON", filepath.Join(t.TempDir(), "python3"))
	_, err = evaluate(context.Background(), layer(true), lm, WithRegistry(reg))
	if !errors.Is(err, codeexec.ErrNoPython) {
		t.Errorf("without python3: %v, want ErrNoPython", err)
	}
	t.Setenv("LMEVAL_PYTHON", "")

	// A system that cannot confine the programs: refused before the model
	// is asked for anything, saying what is missing, unless accepted.
	t.Setenv(codeexec.EnvDisable, "mountview,landlock")
	_, err = NewPlan(layer(true), WithRegistry(reg))
	if !errors.Is(err, codeexec.ErrUnconfined) || !strings.Contains(err.Error(), "nothing confines the program's files") {
		t.Errorf("without confinement: %v, want ErrUnconfined", err)
	}
	unconfined := layer(true)
	unconfined.ConfirmRunUnconfinedCode = true
	if os.Geteuid() == 0 {
		// Unconfined, root's programs run as nobody, who cannot read an
		// interpreter under /root.
		t.Setenv("LMEVAL_PYTHON", "/usr/bin/python3")
	}
	if _, err = NewPlan(unconfined, WithRegistry(reg)); err != nil {
		t.Errorf("with --confirm_run_unconfined_code: %v", err)
	}
	t.Setenv(codeexec.EnvDisable, "")
	t.Setenv("LMEVAL_PYTHON", "")

	samples := newMemSamples()
	res, err := evaluate(context.Background(), layer(true), lm, WithRegistry(reg), WithSamples(samples.open))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		task, key string
		want      float64
	}{
		// add passes, neg fails, spin loops until the time limit.
		{"humaneval_local", "pass@1,create_test", 1.0 / 3},
		{"humaneval_instruct_local", "pass@1,create_test", 1.0 / 3},
		{"mbpp_local", "pass_at_1,none", 0.5},
		{"mbpp_instruct_local", "pass_at_1,extract_code", 0.5},
	} {
		e, ok := res.Results.Get(c.task)
		if !ok {
			t.Fatalf("no %s in results", c.task)
		}
		if got := getNum(t, e, c.key); !near(got, c.want) {
			t.Errorf("%s %s = %v, want %v", c.task, c.key, got, c.want)
		}
	}
	// As in lm-eval, the dict's keys take the function's higher_is_better.
	if hib := res.HigherIsBetter["humaneval_local"]; hib == nil || fmt.Sprint(hib.Keys()) != "[pass_at_k pass@1]" {
		t.Errorf("higher_is_better %v, want pass_at_k then pass@1", hib)
	} else if v, _ := hib.Get("pass@1"); v != true {
		t.Error("pass@1 not higher-is-better")
	}
	// The samples hold the programs the filter built.
	for _, s := range samples.byTask["humaneval_instruct_local"] {
		if s.DocID == 0 {
			b, _ := json.Marshal(s.FilteredResps)
			if !strings.Contains(string(b), `def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n    return a + b\n`) || strings.Contains(string(b), "Done.") {
				t.Errorf("humaneval_instruct filtered_resps %s", b)
			}
		}
	}
	if files := res.LMEval.TaskFiles; !strings.HasPrefix(files["mbpp_local"], dir) {
		t.Errorf("task_files %v", files)
	}
}

// TestCodeTaskRequests: the requests of every humaneval, mbpp and
// cruxeval variant (and two humaneval_infilling ones) equal those lm-eval builds on the same documents (prompts, few-shot
// examples of list_fewshot_samples, gen_prefix, generation_kwargs,
// repeats), dumped by testdata/code_tasks/gen_requests.py.
func TestCodeTaskRequests(t *testing.T) {
	tree, err := filepath.Abs("../../shared/lm-eval/lm_eval/tasks")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tree); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	data, err := filepath.Abs("testdata/code_tasks")
	if err != nil {
		t.Fatal(err)
	}
	type req struct {
		Task      string `json:"task"`
		DocID     int    `json:"doc_id"`
		Idx       int    `json:"idx"`
		Repeats   int    `json:"repeats"`
		Arguments []any  `json:"arguments"`
	}
	want := map[string][]req{}
	for _, m := range readJSONL(t, filepath.Join(data, "requests.jsonl")) {
		b, _ := json.Marshal(m)
		var r req
		json.Unmarshal(b, &r)
		l := want[r.Task]
		if n := len(l); n > 0 && l[n-1].DocID == r.DocID && l[n-1].Idx == r.Idx {
			continue // one line per repeat
		}
		want[r.Task] = append(l, r)
	}
	dir, files := codeWrappers(t, tree, data)
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(files) {
		t.Fatalf("vectors for %d tasks, want %d", len(want), len(files))
	}
	loader, _ := DatasetLoader(dataset.Options{Offline: true})
	for name, reqs := range want {
		sel, err := reg.Load([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		tk := sel.Tasks()[0]
		if err := tk.BuildRequests(context.Background(), task.BuildOptions{Loader: loader}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(tk.Instances) != len(reqs) {
			t.Fatalf("%s: %d requests, lm-eval %d", name, len(tk.Instances), len(reqs))
		}
		for i, in := range tk.Instances {
			w := reqs[i]
			if in.DocID != w.DocID || in.Idx != w.Idx || in.Repeats != w.Repeats {
				t.Errorf("%s request %d: doc %d idx %d repeats %d, lm-eval %d %d %d", name, i, in.DocID, in.Idx, in.Repeats, w.DocID, w.Idx, w.Repeats)
			}
			if ctx := w.Arguments[0].(string); in.Generate.Context != ctx {
				t.Errorf("%s doc %d: context\n%q\nlm-eval\n%q", name, in.DocID, in.Generate.Context, ctx)
			}
			got, _ := json.Marshal(in.GenKwargs)
			exp, _ := json.Marshal(w.Arguments[1])
			if string(got) != string(exp) {
				t.Errorf("%s doc %d: gen_kwargs %s, lm-eval %s", name, in.DocID, got, exp)
			}
		}
	}
}

// codeWrappers writes wrapper YAML (include: lm-eval's file, local
// data_files) for the code tasks of testdata/code_tasks, as its
// generators do, and returns the directory and the lm-eval files.
func codeWrappers(t *testing.T, tree, data string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"humaneval": "humaneval/humaneval.yaml", "humaneval_64": "humaneval/humaneval_64.yaml",
		"humaneval_instruct": "humaneval/humaneval_instruct.yaml", "humaneval_64_instruct": "humaneval/humaneval_64_instruct.yaml",
		"humaneval_plus": "humaneval/humaneval_plus.yaml", "mbpp": "mbpp/mbpp.yaml", "mbpp_instruct": "mbpp/mbpp_instruct.yaml",
		"mbpp_plus": "mbpp/mbpp_plus.yaml", "mbpp_plus_instruct": "mbpp/mbpp_plus_instruct.yaml",
		"humaneval_single_line_infilling": "humaneval_infilling/single_line_infilling.yaml",
		"humaneval_multi_line_infilling":  "humaneval_infilling/multi_line_infilling.yaml",
		"cruxeval_input":                  "cruxeval/cruxeval_input.yaml", "cruxeval_input_cot": "cruxeval/cruxeval_input_cot.yaml",
		"cruxeval_output": "cruxeval/cruxeval_output.yaml", "cruxeval_output_cot": "cruxeval/cruxeval_output_cot.yaml",
		"cruxeval_input_08": "cruxeval/cruxeval_input_08.yaml",
	}
	for name, f := range files {
		jsonl := "humaneval.jsonl"
		switch {
		case strings.HasPrefix(name, "cruxeval"):
			jsonl = "cruxeval.jsonl"
		case strings.Contains(name, "infilling"):
			jsonl = "infilling.jsonl"
		case strings.HasPrefix(name, "mbpp_plus"):
			jsonl = "mbppplus.jsonl"
		case strings.HasPrefix(name, "mbpp"):
			jsonl = "mbpp.jsonl"
		}
		y := "include: " + filepath.Join(tree, f) + "\ntask: " + name + "_local\ndataset_path: json\ndataset_name: null\n" +
			"dataset_kwargs:\n  data_files:\n    test: " + filepath.Join(data, jsonl) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+"_local.yaml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, files
}

// TestCodeTaskMetrics: the metrics lm-eval computes from fixed answers
// (testdata/code_tasks/answers.json: right, wrong, looping, unbounded
// allocation, a socket; metrics.json by gen_metrics.py, replaying them
// through the real lm-eval) equal lmeval's from the same answers.
func TestCodeTaskMetrics(t *testing.T) {
	tree, err := filepath.Abs("../../shared/lm-eval/lm_eval/tasks")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tree); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	data, _ := filepath.Abs("testdata/code_tasks")
	dir, _ := codeWrappers(t, tree, data)
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	var answers map[string][][]string
	var want map[string]map[string]any
	for f, v := range map[string]any{"answers.json": &answers, "metrics.json": &want} {
		b, err := os.ReadFile(filepath.Join(data, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	var reqs []map[string]any
	for _, m := range readJSONL(t, filepath.Join(data, "requests.jsonl")) {
		reqs = append(reqs, m)
	}
	for name, docs := range answers {
		// One run per task: tasks over the same documents share contexts.
		lm := &contextLM{answers: map[string][]string{}, next: map[string]int{}}
		for _, r := range reqs {
			if r["task"] == name {
				lm.answers[r["arguments"].([]any)[0].(string)] = docs[int(r["doc_id"].(float64))]
			}
		}
		cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
			"model": "dummy", "tasks": []string{name}, "bootstrap_iters": "0", "confirm_run_unsafe_code": "true"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := evaluate(context.Background(), cfg, lm, WithRegistry(reg))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, _ := res.Results.Get(name)
		for k, w := range want[name] {
			if k == "name" || k == "sample_len" {
				continue
			}
			if got := getNum(t, e, k); math.Abs(got-w.(float64)) > 1e-9 {
				t.Errorf("%s %s = %v, lm-eval %v", name, k, got, w)
			}
		}
	}
}

// contextLM answers a generation by its context, giving a context's
// answers in turn (the repeats of a document).
type contextLM struct {
	model.LM
	mu      sync.Mutex
	answers map[string][]string
	next    map[string]int
}

func (c *contextLM) GenerateUntil(_ context.Context, reqs []model.GenerateRequest) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(reqs))
	for i, r := range reqs {
		a, ok := c.answers[r.Context]
		if !ok {
			return nil, fmt.Errorf("no answer for context %q", r.Context)
		}
		out[i] = a[c.next[r.Context]%len(a)]
		c.next[r.Context]++
	}
	return out, nil
}
