package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/model"
)

// runApp runs a command line in-process and returns its stdout.
func runApp(t *testing.T, line ...string) (string, error) {
	t.Helper()
	app := newApp()
	var out, errOut strings.Builder
	app.Writer, app.ErrWriter = &out, &errOut
	err := app.RunContext(context.Background(), prepareArgs(append([]string{"lmeval"}, line...)))
	return out.String(), err
}

func TestInspect(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "models", "stories260K.gguf")
	if _, err := os.Stat(path); err != nil {
		t.Skip("../shared/models/stories260K.gguf not available")
	}
	out, err := runApp(t, "inspect", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version uint32
		Facts   map[string]any
		EOG     []Token
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("inspect --json output is not JSON: %v\n%s", err, out)
	}
	// stories260K: llama, 5 layers of width 64, 8 heads (4 KV), 512 tokens.
	want := map[string]float64{"BlockCount": 5, "EmbeddingLength": 64, "HeadCount": 8, "HeadCountKV": 4, "VocabSize": 512}
	for k, v := range want {
		if got.Facts[k] != v {
			t.Errorf("facts[%s] = %v, want %v", k, got.Facts[k], v)
		}
	}
	if len(got.EOG) != 1 || got.EOG[0] != (Token{ID: 2, Piece: "</s>"}) {
		t.Errorf("eog = %+v, want [{2 </s>}] (EOS is stories260K's only end-of-generation token)", got.EOG)
	}
	if got.Version != 3 || got.Facts["Architecture"] != "llama" {
		t.Errorf("version %d, architecture %v", got.Version, got.Facts["Architecture"])
	}
	text, err := runApp(t, "inspect", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"architecture         llama", "layers               5", "heads                8 (kv 4)", `end of generation    2 "</s>"`} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, text)
		}
	}
	if _, err := runApp(t, "inspect", "no-such.gguf"); err == nil {
		t.Error("inspect of a missing file succeeded")
	}
}

func TestCacheCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.sqlite")
	db, err := cache.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	dummy, _ := dummy.New(nil)
	lm, err := db.Wrap(dummy, cache.Identity{Backend: "dummy", Settings: map[string]string{"seed": "1234"}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []model.LoglikelihoodRequest{{Context: "a", Continuation: " b"}, {Context: "c", Continuation: " d"}}
	if _, err := lm.Loglikelihood(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if _, err := lm.GenerateUntil(context.Background(), []model.GenerateRequest{{Context: "x"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	out, err := runApp(t, "cache", "info", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var info cache.Summary
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if info.Responses["loglikelihood"] != 2 || info.Responses["generate_until"] != 1 || len(info.Models) != 1 || info.Models[0].Entries != 3 {
		t.Errorf("cache info = %+v", info)
	}
	out, err = runApp(t, "cache", "clear", path)
	if err != nil || !strings.Contains(out, "3 responses") {
		t.Errorf("cache clear: %q, %v", out, err)
	}
	out, err = runApp(t, "cache", "info", path)
	if err != nil || !strings.Contains(out, "responses            0") {
		t.Errorf("cache info after clear: %q, %v", out, err)
	}
	if _, err := runApp(t, "cache", "info", filepath.Join(t.TempDir(), "none.sqlite")); err == nil {
		t.Error("cache info created a cache where there was none")
	}
}

func TestLsPresets(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.yaml"), []byte("preset: mine\ndescription: d\ntasks: [x|2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runApp(t, "ls", "presets", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"leaderboard-v1", "quick", "ppl", "mine", "x|2"} {
		if !strings.Contains(out, want) {
			t.Errorf("ls presets lacks %q:\n%s", want, out)
		}
	}
	if _, err := runApp(t, "ls", "bogus"); err == nil {
		t.Error("ls bogus succeeded")
	}
}

func TestLsTasks(t *testing.T) {
	out, err := runApp(t, "ls", "groups")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "mmlu ") || strings.Contains(out, "arc_easy") {
		t.Errorf("ls groups:\n%s", out)
	}
	out, err = runApp(t, "ls", "subtasks")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "arc_easy") || !strings.Contains(out, "hellaswag") {
		t.Errorf("ls subtasks:\n%s", out)
	}
	// Each row names the groups and tags that hold it directly.
	out, err = runApp(t, "ls", "tasks")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	for name, want := range map[string]string{"arc_easy": "ai2_arc", "mmlu_anatomy": "mmlu_stem,", "mmlu_stem": "mmlu", "lambada_openai": "lambada"} {
		if r := rows[name]; len(r) < 3 || r[2] != want {
			t.Errorf("ls tasks: row %v, want %q in the groups column", r, want)
		}
	}
}

// ls says whether each task can run, and --available lists only those.
func TestLsRunsAndAvailable(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"needs_py.yaml": "task: needs_py\ndataset_path: json\ntest_split: test\noutput_type: generate_until\ndoc_to_text: !function utils.no_such_port\ndoc_to_target: a\n",
		"plain.yaml":    "task: plain_ok\ndataset_path: json\ntest_split: test\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runApp(t, "ls", "subtasks", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = line
		}
	}
	if r := rows["needs_py"]; !strings.Contains(r, "no: needs Python function utils.no_such_port") {
		t.Errorf("ls: needs_py row %q, want its missing function", r)
	}
	if r := rows["plain_ok"]; !strings.HasSuffix(strings.TrimSpace(r), "yes") {
		t.Errorf("ls: plain_ok row %q, want RUNS yes", r)
	}
	out, err = runApp(t, "ls", "subtasks", "--available", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "needs_py") || !strings.Contains(out, "plain_ok") || !strings.Contains(out, "arc_easy") {
		t.Errorf("ls --available:\n%s", out)
	}
}

// tinyTask writes a two-choice task over a local JSONL dataset.
func tinyTask(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data.jsonl")
	docs := `{"q": "Is the sky blue?", "answer": 0}
{"q": "Is fire cold?", "answer": 1}
{"q": "Is water wet?", "answer": 0}
`
	yaml := `task: tiny_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: ` + data + `
output_type: multiple_choice
test_split: test
doc_to_text: "Q: {{q}}\nA:"
doc_to_target: answer
doc_to_choice: ["yes", "no"]
metric_list:
  - metric: acc
`
	if err := os.WriteFile(data, []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tiny.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWriteOut(t *testing.T) {
	dir := tinyTask(t)
	out, err := runApp(t, "write-out", "--tasks", "tiny_mc|1", "--include_path", dir, "--num_examples", "2")
	if err != nil {
		t.Fatal(err)
	}
	// The shots follow lm-eval's sampler: Python's random.Random(1234)
	// draws sample(docs, 2) per document, dropping the document itself:
	// document 0 gets document 1, document 1 gets document 0.
	want := `=== tiny_mc (1-shot) ===
!!@@##@@!! -- Example 0
Q: Is fire cold?
A: no

Q: Is the sky blue?
A:
!!@@##@@!! -- Target: 0
!!@@##@@!! -- Choices: ['yes', 'no']
!!@@##@@!! -- Gold: 0
!!@@##@@!! -- Example 1
Q: Is the sky blue?
A: yes

Q: Is fire cold?
A:
!!@@##@@!! -- Target: 1
!!@@##@@!! -- Choices: ['yes', 'no']
!!@@##@@!! -- Gold: 1
`
	if out != want {
		t.Errorf("write-out:\n%s\nwant:\n%s", out, want)
	}
	outDir := filepath.Join(t.TempDir(), "wo")
	if _, err := runApp(t, "write-out", "-t", "tiny_mc", "--include_path", dir, "--output_base_path", outDir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(outDir, "tiny_mc"))
	if err != nil || !strings.HasPrefix(string(b), "!!@@##@@!! -- Example 0\nQ: Is the sky blue?\nA:\n") {
		t.Errorf("write-out file: %q, %v", b, err)
	}
	if _, err := runApp(t, "write-out", "-t", "tiny_mc", "-f", "x", "--include_path", dir); err == nil || !strings.Contains(err.Error(), "--num_fewshot") {
		t.Errorf("bad --num_fewshot: %v", err)
	}
}

func TestValidate(t *testing.T) {
	dir := tinyTask(t)
	out, err := runApp(t, "validate", "--tasks", "tiny_mc", "--include_path", dir)
	if err != nil || out != "ok: tiny_mc\n" {
		t.Errorf("validate tiny_mc: %q, %v", out, err)
	}
	bad := `task: broken
dataset_path: json
output_type: multiple_choice
test_split: test
doc_to_text: "{{ q "
doc_to_target: answer
doc_to_choice: ["a", "b"]
filter_list:
  - name: x
    filter:
      - function: no_such_filter
metric_list:
  - metric: no_such_metric
`
	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runApp(t, "validate", "-t", "broken", "--include_path", dir, "--no_docs")
	if err == nil {
		t.Fatalf("validate of a broken task succeeded: %q", out)
	}
	for _, want := range []string{"doc_to_text", "no_such_filter", `unknown metric "no_such_metric"`} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
}

// TestRunResolvesTasksFirst: a task name that resolves to nothing is
// reported before the model is opened (here the model file does not even
// exist, so a model-first order would report the file instead).
func TestRunResolvesTasksFirst(t *testing.T) {
	_, err := runApp(t, "run", "--model_args", "pretrained="+filepath.Join(t.TempDir(), "absent.gguf"),
		"--tasks", "no_such_task_anywhere", "--no_progress")
	if err == nil || !strings.Contains(err.Error(), "--tasks no_such_task_anywhere") || strings.Contains(err.Error(), "absent.gguf") {
		t.Fatalf("err = %v, want the unknown task named before any model error", err)
	}
}

// TestLsCache checks that `ls tasks` over an include path gives the same
// listing from its cache and notices a changed task file or helper.
func TestLsCache(t *testing.T) {
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "task: cached_a\ndataset_path: json\ndoc_to_text: q\ndoc_to_target: a\noutput_type: generate_until\nclass: !function utils.Task\n")
	write("g.yaml", "group: cached_g\ntask: [cached_a]\n")
	row := func(out, name string) string {
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == name {
				return line
			}
		}
		return ""
	}
	first, err := runApp(t, "ls", "tasks", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := row(first, "cached_a"); !strings.Contains(r, "no:") {
		t.Fatalf("ls row %q: want a Python class task that does not run", r)
	}
	files, _ := filepath.Glob(filepath.Join(os.Getenv("LMEVAL_CACHE_DIR"), "registry", "ls-*.json"))
	if len(files) != 1 {
		t.Fatalf("ls cache files %v, want one", files)
	}
	second, err := runApp(t, "ls", "tasks", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	if second != first {
		t.Errorf("ls from the cache:\n%s\nwant\n%s", second, first)
	}
	// The task no longer needs a Python class: it runs now.
	write("a.yaml", "task: cached_a\ndataset_path: json\ndoc_to_text: q\ndoc_to_target: a\noutput_type: generate_until\n")
	third, err := runApp(t, "ls", "tasks", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := row(third, "cached_a"); !strings.HasSuffix(strings.TrimSpace(r), "yes") || !strings.Contains(r, "cached_g") {
		t.Errorf("after the change, ls row %q: want it to run, in cached_g (stale cache?)", r)
	}
	// A new helper file beside the tasks changes the fingerprint too.
	write("utils.py", "def f(doc):\n    return doc\n")
	if _, err := runApp(t, "ls", "tasks", "--include_path", dir); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(os.Getenv("LMEVAL_CACHE_DIR"), "registry", "ls-*.json")); len(files) != 3 {
		t.Errorf("ls cache files %v, want three (one per state of the tree)", files)
	}
}

// TestVersionBackends checks lmeval version's backend lines: one per
// backend the engine registered, in its order, each with the number of
// devices Devices() lists for it.
func TestVersionBackends(t *testing.T) {
	out, err := runApp(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	devices := map[string]int{}
	for _, d := range engine.Devices() {
		devices[d.Backend]++
	}
	var names []string
	for _, l := range strings.Split(out, "\n") {
		line, ok := strings.CutPrefix(l, "backend ")
		if !ok {
			continue
		}
		var name, noun string
		var n int
		if _, err := fmt.Sscanf(strings.Replace(line, ":", " ", 1), "%s %d %s", &name, &n, &noun); err != nil || n != devices[name] || (noun == "device") != (n == 1) {
			t.Errorf("backend line %q: want %d devices of %s (%v)", line, devices[name], name, err)
		}
		names = append(names, name)
	}
	if want := engine.Backends(); strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("version lists backends %v, the engine %v\n%s", names, want, out)
	}
}
