package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/hub/hubtest"
)

// lmEvalTasks is lm-eval's task tree beside the repository, or skips.
func lmEvalTasks(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("lm-eval's task tree (../shared/lm-eval) not available: %v", err)
	}
	return dir
}

// serveDatasets puts hand-made documents on a fake Hub under the real
// datasets' names: repo -> config -> split -> documents, each split a
// JSON Lines file.
func serveDatasets(t *testing.T, data map[string]map[string]map[string][]map[string]any) {
	srv := hubtest.New(t)
	for repo, configs := range data {
		files := map[string]map[string]hubtest.DataFile{}
		for cfg, splits := range configs {
			files[cfg] = map[string]hubtest.DataFile{}
			for split, docs := range splits {
				var lines []string
				for _, d := range docs {
					b, err := json.Marshal(d)
					if err != nil {
						t.Fatal(err)
					}
					lines = append(lines, string(b))
				}
				files[cfg][split] = hubtest.DataFile{Path: cfg + "/" + split + ".jsonl", Data: []byte(strings.Join(lines, "\n") + "\n")}
			}
		}
		srv.AddDataset(repo, files)
	}
	srv.Use(t)
}

// readResults reads the one results file a run wrote into dir (or into
// the model's directory in it).
func readResults(t *testing.T, dir string) *results.Results {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "results_*.json"))
	inModelDir, _ := filepath.Glob(filepath.Join(dir, "*", "results_*.json"))
	files = append(files, inModelDir...)
	if len(files) != 1 {
		t.Fatalf("results files: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mArc is n documents of alexandrainst/m_arc's schema.
func mArc(lang string, n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{
			"id": fmt.Sprintf("%s-%d", lang, i), "instruction": fmt.Sprintf("%s question %d?", lang, i),
			"option_a": "one", "option_b": "two", "option_c": "three", "option_d": "four", "option_e": "",
			"answer": []string{"A", "B", "C", "D"}[i%4],
		})
	}
	return out
}

// belebeleDocs is n documents of facebook/belebele's schema.
func belebeleDocs(lang string, n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{
			"flores_passage": fmt.Sprintf("A %s passage, number %d.", lang, i), "question": "Which number?",
			"mc_answer1": "0", "mc_answer2": "1", "mc_answer3": "2", "mc_answer4": "3",
			"correct_answer_num": fmt.Sprint(i%4 + 1),
		})
	}
	return out
}

// TestRunTwoLanguages runs two suites of lm-eval's tree, the arc_multilingual
// tag and the belebele group, plus xnli, in Hindi and Kannada on local
// documents with the dummy model: one results table per language holding
// exactly that language's tasks, xnli reported as having no Kannada task,
// and a summary whose cells are the tables' values.
func TestRunTwoLanguages(t *testing.T) {
	tasks := lmEvalTasks(t)
	splits := func(docs []map[string]any) map[string][]map[string]any {
		return map[string][]map[string]any{"train": docs, "validation": docs, "test": docs}
	}
	serveDatasets(t, map[string]map[string]map[string][]map[string]any{
		"alexandrainst/m_arc": {"hi": splits(mArc("hi", 4)), "kn": splits(mArc("kn", 4))},
		"facebook/belebele":   {"hin_Deva": {"test": belebeleDocs("hin", 4)}, "kan_Knda": {"test": belebeleDocs("kan", 4)}},
		"facebook/xnli": {"hi": {
			"validation": {{"premise": "p", "hypothesis": "h", "label": 0}, {"premise": "q", "hypothesis": "i", "label": 2}},
			"train":      {{"premise": "p", "hypothesis": "h", "label": 1}},
		}},
	})
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	outDir := t.TempDir()
	out, err := runApp(t, "run", "--model", "dummy", "--tasks", "arc_multilingual", "belebele", "xnli",
		"--language", "hindi_Deva,kan", "--include_path", tasks, "--no_progress", "--output_path", outDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lmeval printed:\n%s", out)
	hi := strings.Index(out, "## Hindi (hin_Deva)")
	kn := strings.Index(out, "## Kannada (kan)")
	sum := strings.Index(out, "## Summary by language")
	if hi < 0 || kn < hi || sum < kn {
		t.Fatalf("want a Hindi, a Kannada and a summary section in that order")
	}
	sections := map[string]string{"hin": out[hi:kn], "kan": out[kn:sum]}
	want := map[string][]string{"hin": {"arc_hi", "belebele_hin_Deva", "xnli_hi"}, "kan": {"arc_kn", "belebele_kan_Knda"}}
	others := []string{"arc_hi", "arc_kn", "belebele_hin_Deva", "belebele_hin_Latn", "belebele_kan_Knda", "xnli_hi", "arc_ta", "xnli_en"}
	for l, sec := range sections {
		var first []string
		for _, r := range markdownRows(sec) {
			first = append(first, strings.TrimLeft(r[0], " -"))
		}
		for _, name := range others {
			if in := contains(first, name); in != contains(want[l], name) {
				t.Errorf("%s section: has %s = %v, want %v", l, name, in, !in)
			}
		}
	}
	if !strings.Contains(out, "- xnli: no task in Kannada (kan)") {
		t.Error("the summary does not say xnli has no Kannada task")
	}
	// The summary's cells are the results' first metric (acc).
	res := readResults(t, outDir)
	acc := func(name string) string {
		e, ok := res.Results.Get(name)
		if !ok {
			t.Fatalf("no results for %s", name)
		}
		m, v, _ := results.FirstMetric(e)
		return fmt.Sprintf("%s %.4f", m, v)
	}
	rows := markdownRows(out[sum:])
	if len(rows) != 3 || strings.Join(rows[0], "|") != "Language|arc_multilingual|belebele|xnli" {
		t.Fatalf("summary rows %q", rows)
	}
	wantRows := [][]string{
		{"Hindi (hin_Deva)", acc("arc_hi"), acc("belebele_hin_Deva"), acc("xnli_hi")},
		{"Kannada (kan)", acc("arc_kn"), acc("belebele_kan_Knda"), "-"},
	}
	for i, w := range wantRows {
		if strings.Join(rows[i+1], "|") != strings.Join(w, "|") {
			t.Errorf("summary row %q, want %q", rows[i+1], w)
		}
	}
	// belebele_hin_Latn is Hindi in Latin script: hindi_Deva leaves it out.
	names := res.Results.Keys()
	sort.Strings(names)
	if want := []string{"arc_hi", "arc_kn", "belebele_hin_Deva", "belebele_kan_Knda", "xnli_hi"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("ran %v, want %v", names, want)
	}
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// TestLsLanguages lists a small include path's languages and its Hindi
// tasks.
func TestLsLanguages(t *testing.T) {
	dir := t.TempDir()
	for _, l := range []string{"hi", "kn", "ta"} {
		if err := os.WriteFile(filepath.Join(dir, "mytask_"+l+".yaml"), []byte("task: mytask_"+l+"\ndataset_path: json\ndataset_name: "+l+"\noutput_type: multiple_choice\ndoc_to_text: q\ndoc_to_target: 0\ndoc_to_choice: [a, b]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	t.Setenv("LMEVAL_TASKS_SOURCE", "")
	out, err := runApp(t, "ls", "tasks", "--include_path", dir, "--language", "hindi")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 2 || !strings.HasPrefix(rows[1], "mytask_hi ") || !strings.Contains(rows[1], "hin_Deva (dataset_name)") {
		t.Errorf("ls tasks --language hindi:\n%s", out)
	}
	out, err = runApp(t, "ls", "languages", "--include_path", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hin       Hindi", "kan       Kannada", "tam       Tamil"} {
		if !strings.Contains(out, want) {
			t.Errorf("ls languages lacks %q:\n%s", want, out)
		}
	}
	if _, err := runApp(t, "ls", "tasks", "--include_path", dir, "--language", "klingonish"); err == nil || !strings.Contains(err.Error(), `unknown language "klingonish"`) {
		t.Errorf("bad language: %v", err)
	}
}

// TestLsLanguagePlan prints what the indic preset runs in two languages
// over lm-eval's tree.
func TestLsLanguagePlan(t *testing.T) {
	tasks := lmEvalTasks(t)
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	out, err := runApp(t, "ls", "languages", "--preset", "indic", "--language", "kannada,bengali", "--include_path", tasks)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"LANGUAGE", "SUITE", "RUNS"},
		{"Kannada (kan)", "arc_multilingual", "arc_kn"},
		{"Kannada (kan)", "hellaswag_multilingual", "hellaswag_kn"},
		{"Kannada (kan)", "m_mmlu", "m_mmlu_kn"},
		{"Kannada (kan)", "boolqa_bn", "- (none)"},
		{"Bangla (ben)", "arc_multilingual", "arc_bn"},
		{"Bangla (ben)", "hellaswag_multilingual", "hellaswag_bn"},
		{"Bangla (ben)", "m_mmlu", "m_mmlu_bn"},
		{"Bangla (ben)", "boolqa_bn", "boolqa_bn"},
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got\n%s", out)
	}
	for i, l := range lines {
		cells := regexpSplit(l)
		if strings.Join(cells, "|") != strings.Join(want[i], "|") {
			t.Errorf("line %d: %q, want %q", i, cells, want[i])
		}
	}
}

// regexpSplit splits a tabwriter line at runs of two or more spaces.
func regexpSplit(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "  ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// TestRunLanguageNone stops before the model loads when no suite has a
// task in the language, naming each suite.
func TestRunLanguageNone(t *testing.T) {
	tasks := lmEvalTasks(t)
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	_, err := runApp(t, "run", "--model", "llama", "--model_args", "pretrained=/nonexistent.gguf", "--tasks", "xnli", "boolqa_bn",
		"--language", "kannada", "--include_path", tasks, "--no_progress")
	if err == nil || !strings.Contains(err.Error(), "xnli: no task in Kannada (kan)") || !strings.Contains(err.Error(), "boolqa_bn: no task in Kannada (kan)") {
		t.Errorf("err = %v", err)
	}
}
