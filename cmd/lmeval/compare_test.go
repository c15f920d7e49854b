package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
	"github.com/lmeval/lmeval/stats"
)

// storyTask writes a 48-document multiple-choice task that stories260K
// mostly gets right (a TinyStories continuation against function words)
// and a model with random weights does not.
func storyTask(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	starts := []struct{ text, gold string }{
		{"Once upon a time, there was a little girl named", " Lily"},
		{"Once upon a time, there was a little boy named", " Tim"},
		{"%s was very happy and gave her mom a big", " hug"},
		{"The sun was shining and the birds were", " singing"},
		{"%s wanted to play with his", " ball"},
		{"One day, %s went to the", " park"},
	}
	names := []string{"Lily", "Tim", "Sue", "Ben", "Max", "Anna", "Tom", "Lucy"}
	junk := []string{" quickly", " was", " under", " the", " seven", " blue"}
	var lines []string
	for i := 0; i < 48; i++ {
		s := starts[i%len(starts)]
		name := names[i%len(names)]
		text := s.text
		if strings.Contains(text, "%s") {
			text = fmt.Sprintf(text, name)
		}
		choices := []string{junk[i%6], junk[(i+2)%6], junk[(i+4)%6]}
		label := i % 4
		choices = append(choices[:label], append([]string{s.gold}, choices[label:]...)...)
		js, _ := json.Marshal(map[string]any{"text": text, "choices": choices, "label": label, "name": name})
		lines = append(lines, string(js))
	}
	data := filepath.Join(dir, "stories.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := `task: story_e2e
dataset_path: json
dataset_kwargs:
  data_files:
    test: ` + data + `
    train: ` + data + `
test_split: test
fewshot_split: train
output_type: multiple_choice
doc_to_text: "{{text}}"
doc_to_choice: "{{choices}}"
doc_to_target: label
target_delimiter: ""
metric_list:
  - metric: acc
  - metric: acc_norm
`
	if err := os.WriteFile(filepath.Join(dir, "story_e2e.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCompareCommand runs lmeval end to end: runs of stories260K, of a
// random model and of a sweep (base and F16 copy, --log_samples), then
// lmeval compare on them: the verdicts, the files, the same statistics as
// the sweep's own paired tests, and the refusals.
func TestCompareCommand(t *testing.T) {
	model := storiesPath(t)
	tasks := storyTask(t)
	dir := t.TempDir()
	random := filepath.Join(dir, "random.gguf")
	if err := ggufwrite.WriteLlama(random, ggufwrite.LlamaSpec{Seed: 5, Type: gguf.F32, AddBOS: true}); err != nil {
		t.Fatal(err)
	}
	run := func(out, m string, extra ...string) string {
		t.Helper()
		args := append([]string{"run", "--model_args", "pretrained=" + m + ",threads=2", "--tasks", "story_e2e",
			"--include_path", tasks, "--output_path", out, "--log_samples", "--no_progress"}, extra...)
		if _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := run(filepath.Join(dir, "a"), model)
	r := run(filepath.Join(dir, "r"), random)
	cmp := filepath.Join(dir, "cmp")
	out, err := runApp(t, "compare", a, r, "--output_path", cmp, "--cluster", "name", "--seed", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"|story_e2e|acc,none", "B significantly worse", "significantly worse: story_e2e acc,none",
		"(8 names)", "McNemar ", "Holm over 2 task tests", "seed 7"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(cmp, "compare.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Comparisons []struct {
			Tasks []struct {
				Name, Metric string
				Paired       *stats.Result
				PHolm        *float64 `json:"p_holm"`
				Significant  bool
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	acc := rep.Comparisons[0].Tasks[0]
	if acc.Metric != "acc" || acc.Paired == nil || acc.Paired.N != 48 || !acc.Significant || acc.Paired.Diff >= 0 ||
		acc.Paired.Cluster == nil || acc.Paired.Cluster.Clusters != 8 || acc.Paired.Boot == nil {
		t.Errorf("compare.json: %s", data)
	}
	page, err := os.ReadFile(filepath.Join(cmp, "compare.html"))
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("compare.html: %v", err)
	}

	// A sweep with --log_samples writes runs that compare reads, and its
	// own paired tests are the same statistics.
	sw := filepath.Join(dir, "sweep")
	text := filepath.Join("..", "..", "sweep", "testdata", "stories.txt")
	if _, err := runApp(t, "sweep", "--base", model, "--quants", "F16", "--quant_dir", filepath.Join(dir, "q"),
		"--text", text, "--chunk_size", "128", "--tasks", "story_e2e", "--include_path", tasks, "--log_samples",
		"--use_cache", filepath.Join(dir, "sweep.sqlite"), "--output_path", sw, "--threads", "2", "--no_progress"); err != nil {
		t.Fatal(err)
	}
	out, err = runApp(t, "compare", sw, "--bootstrap_iters", "2000")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "B = ") || !strings.Contains(out, "F16") || !strings.Contains(out, "story_e2e") {
		t.Errorf("compare of the sweep:\n%s", out)
	}
	var swRep struct {
		Models []struct {
			Name   string
			RunDir string `json:"run_dir"`
			Tasks  []struct {
				Task, Metric string
				Paired       *stats.Result
			}
		}
	}
	data, _ = os.ReadFile(filepath.Join(sw, "sweep.json"))
	if err := json.Unmarshal(data, &swRep); err != nil || len(swRep.Models) != 2 || swRep.Models[1].RunDir != "F16" {
		t.Fatalf("sweep.json: %v %s", err, data)
	}
	cmpSweep := filepath.Join(dir, "cmp_sweep")
	if _, err := runApp(t, "compare", sw, "-o", cmpSweep); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(cmpSweep, "compare.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for _, st := range swRep.Models[1].Tasks {
		for _, row := range rep.Comparisons[0].Tasks {
			if row.Name+" "+row.Metric+",none" != st.Task+" "+st.Metric {
				continue
			}
			if st.Paired == nil || row.Paired == nil || st.Paired.N != row.Paired.N || st.Paired.Diff != row.Paired.Diff ||
				!same(st.Paired.P, row.Paired.P) || !same(st.Paired.MDE, row.Paired.MDE) || st.Paired.Test != row.Paired.Test {
				t.Errorf("%s: sweep %+v, compare %+v", st.Metric, st.Paired, row.Paired)
			}
		}
	}

	// Other prompts (one few-shot example) are refused, naming the task
	// and document.
	f := run(filepath.Join(dir, "f"), model, "--num_fewshot", "1")
	if _, err := runApp(t, "compare", a, f); err == nil || !strings.Contains(err.Error(), "task story_e2e: doc_id 0: the prompts differ") {
		t.Errorf("different prompts: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", a}, "one run; give at least two"},
		{[]string{"compare", a, r, "--alpha", "1.5"}, "--alpha 1.5"},
		{[]string{"compare", a, filepath.Join(dir, "none")}, "no such file"},
		{[]string{"compare", a, r, "--cluster", "nope"}, ""},
	} {
		_, err := runApp(t, c.args...)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
