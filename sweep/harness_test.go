package sweep

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/compare"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/stats"
)

// memoryLoader serves the test's documents: wikitext pages cut from the
// sampled stories (with wikitext's tokenised punctuation, so the scored
// text differs from the page whose words are counted) and a small
// multiple-choice set.
func memoryLoader(t *testing.T) task.DocLoader {
	text := storiesText(t)
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	return func(_ context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		switch spec.Path {
		case "EleutherAI/wikitext_document_level":
			var docs []task.Doc
			for i := 0; i < 3; i++ {
				page := strings.ReplaceAll(paras[i], ", ", " , ")
				page = strings.ReplaceAll(page, ". ", " . ")
				docs = append(docs, task.Doc{"page": page})
			}
			return docs, nil
		case "sweep_memory_mc":
			var docs []task.Doc
			names := []string{"Lily", "Tim", "Sue", "Ben", "Max", "Anna", "Tom", "Mia"}
			things := []string{"ball", "park", "dog", "cake", "tree", "box"}
			for i := 0; i < 24; i++ {
				n := names[i%len(names)]
				docs = append(docs, task.Doc{
					"question": fmt.Sprintf("Once upon a time, there was a little girl named %s. She loved to play with her", n),
					"choices":  []any{" " + things[i%6], " " + things[(i+1)%6], " " + things[(i+2)%6]},
					"label":    int64(i % 3),
				})
			}
			return docs, nil
		}
		return nil, fmt.Errorf("no test dataset %s", spec.Path)
	}
}

func harnessConfig(t *testing.T, tasks []string, limit string) *config.Config {
	t.Helper()
	v := map[string]any{"model": "llama", "tasks": tasks, "bootstrap_iters": "0"}
	if limit != "" {
		v["limit"] = limit
	}
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: v})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A perplexity task's documents come from the harness, its metrics are
// the task's own (wikitext counts the page's words and bytes, not the
// detokenised text's), and --tasks adds accuracy with paired tests.
func TestSweepWithHarnessTasks(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.gguf")
	copyFile(t, base, cp)
	reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: []string{"testdata/tasks"}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := []harness.Option{harness.WithRegistry(reg), harness.WithLoader(memoryLoader(t))}
	ctx := context.Background()
	ppl, err := LoadPPLTask(ctx, harnessConfig(t, []string{"wikitext"}, ""), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(ppl.Docs) != 3 || strings.Contains(ppl.Docs[0], " , ") {
		t.Fatalf("documents %q: want 3, detokenised", ppl.Docs)
	}
	rep, err := Run(ctx, Config{
		Base: base, Models: []string{cp}, Quants: []string{"BF16"}, QuantDir: dir,
		Docs: ppl.Docs, RollingMetrics: ppl.Metrics, ChunkSize: 64, MaxLength: 64, Engine: exact,
		Store: openStore(t, dir), Log: io.Discard,
		Tasks: &HarnessTasks{Config: harnessConfig(t, []string{"sweep_mc"}, ""), Options: opts},
	})
	if err != nil {
		t.Fatal(err)
	}
	// word_perplexity by hand: exp(-loglikelihood / words of the pages).
	words := 0
	for i := 0; i < 3; i++ {
		docs, _ := memoryLoader(t)(ctx, task.DatasetSpec{Path: "EleutherAI/wikitext_document_level"}, "test")
		words += len(regexp.MustCompile(`\s+`).Split(docs[i]["page"].(string), -1))
	}
	b := rep.Models[0]
	if want := math.Exp(-b.Rolling.LogLikelihood / float64(words)); math.Abs(b.Rolling.WordPerplexity-want) > 1e-9*want ||
		b.Rolling.TaskMetrics["word_perplexity,none"] != b.Rolling.WordPerplexity {
		t.Errorf("word perplexity %v (task metrics %v), want %v", b.Rolling.WordPerplexity, b.Rolling.TaskMetrics, want)
	}

	score := func(r *Result, metric string) *TaskScore {
		for i := range r.Tasks {
			if r.Tasks[i].Task == "sweep_mc" && r.Tasks[i].Metric == metric {
				return &r.Tasks[i]
			}
		}
		t.Fatalf("%s: no sweep_mc %s in %+v", r.Name, metric, r.Tasks)
		return nil
	}
	for _, r := range rep.Models {
		acc := score(r, "acc,none")
		if len(acc.PerDoc) != 24 || !acc.Binary {
			t.Fatalf("%s: per-document acc %v", r.Name, acc.PerDoc)
		}
		if want := mean(func(i int) float64 { return acc.PerDoc[i] }, 24); math.Abs(acc.Value-want) > 1e-12 {
			t.Errorf("%s: acc %v, mean of per-document values %v", r.Name, acc.Value, want)
		}
	}
	baseAcc, same := score(b, "acc,none"), score(result(t, rep, "copy"), "acc,none")
	if baseAcc.Delta != nil || same.Delta == nil || *same.Delta != 0 || same.P == nil || *same.P != 1 || same.Test != "mcnemar_exact" {
		t.Errorf("copy of the base: Δ %v p %v test %q", same.Delta, same.P, same.Test)
	}
	bf := score(result(t, rep, "BF16"), "acc,none")
	if want := stats.McNemarExact(baseAcc.PerDoc, bf.PerDoc).P; bf.P == nil || *bf.P != want {
		t.Errorf("BF16 p %v, want %v", bf.P, want)
	}
	var table strings.Builder
	WriteTable(&table, rep)
	if !strings.Contains(table.String(), "sweep_mc acc,none") {
		t.Errorf("table lacks the task column:\n%s", table.String())
	}
}

// The store key of --tasks follows what the tasks are, not only their
// names: an edited task (here a different gold answer) must not be served
// the scores stored for the old one, and the same task keys the same.
func TestTaskKeyFollowsTaskContent(t *testing.T) {
	orig, err := os.ReadFile("testdata/tasks/sweep_mc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	key := func(yaml string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "sweep_mc.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
		if err != nil {
			t.Fatal(err)
		}
		h := &HarnessTasks{Config: harnessConfig(t, []string{"sweep_mc"}, ""),
			Options: []harness.Option{harness.WithRegistry(reg), harness.WithLoader(memoryLoader(t))}}
		return h.Key()
	}
	k1, k2 := key(string(orig)), key(string(orig))
	if k1 != k2 {
		t.Errorf("the same tasks give different keys:\n%s\n%s", k1, k2)
	}
	for _, edit := range []struct{ from, to string }{
		{"doc_to_target: label", `doc_to_target: "{{ (label + 1) % 3 }}"`},
		{`doc_to_text: "{{question}}"`, `doc_to_text: "Story: {{question}}"`},
		{"  - metric: acc_norm\n", ""},
	} {
		edited := strings.Replace(string(orig), edit.from, edit.to, 1)
		if edited == string(orig) {
			t.Fatalf("edit %q not applied", edit.from)
		}
		if key(edited) == k1 {
			t.Errorf("task edited (%q -> %q) keeps its key", edit.from, edit.to)
		}
	}
}

// With LogSamples each model's task run is kept (in the store too, so a
// repeated sweep still has it without evaluating) and written as a run
// directory that lmeval compare reads; task results stored without their
// files are evaluated again when the files are asked for.
func TestSweepLogSamples(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.gguf")
	copyFile(t, base, cp)
	reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: []string{"testdata/tasks"}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := []harness.Option{harness.WithRegistry(reg), harness.WithLoader(memoryLoader(t))}
	ctx := context.Background()
	store := openStore(t, dir)
	cfg := func(log bool) Config {
		return Config{Base: base, Models: []string{cp}, Docs: []string{storiesText(t)[:2000]}, ChunkSize: 64,
			Engine: exact, Store: store, Log: io.Discard, LogSamples: log,
			Tasks: &HarnessTasks{Config: harnessConfig(t, []string{"sweep_mc"}, ""), Options: opts}}
	}
	if _, err := Run(ctx, cfg(false)); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, cfg(true))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Computed != 2 || rep.Models[0].Files == nil || rep.Models[1].Files == nil {
		t.Fatalf("stored tasks without files: computed %d passes, files %v %v", rep.Computed, rep.Models[0].Files, rep.Models[1].Files)
	}
	again, err := Run(ctx, cfg(true))
	if err != nil {
		t.Fatal(err)
	}
	if again.Computed != 0 || again.Loaded != 0 || again.Models[1].Files == nil {
		t.Fatalf("repeated sweep: computed %d, loaded %d", again.Computed, again.Loaded)
	}
	out := filepath.Join(dir, "out")
	if _, err := WriteFiles(out, again); err != nil {
		t.Fatal(err)
	}
	paths, err := compare.Expand([]string{out})
	if err != nil || len(paths) != 2 {
		t.Fatalf("Expand: %v %v", paths, err)
	}
	var runs []*compare.Run
	for _, p := range paths {
		r, err := compare.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if runs[0].Label != base || runs[1].Label != cp || len(runs[1].Tasks["sweep_mc"].Docs["none"]) != 24 {
		t.Errorf("runs %q %q", runs[0].Label, runs[1].Label)
	}
	c, err := compare.Compare(runs, compare.Options{Iters: -1})
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the base scores every document as the base does.
	for _, r := range c.Comparisons[0].Tasks {
		if r.Paired == nil || r.Paired.McNemar == nil || r.Paired.McNemar.B+r.Paired.McNemar.C != 0 {
			t.Errorf("%s %s: %+v", r.Name, r.Key(), r.Paired)
		}
	}
}
