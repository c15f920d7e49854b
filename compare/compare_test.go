package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/internal/output"
	"github.com/lmeval/lmeval/stats"
)

// fakeTask is a task as a run scored it: per document its fields, prompt
// and per-metric values (any JSON value; NaN allowed).
type fakeTask struct {
	name    string
	docs    []map[string]any
	prompts []string
	metrics map[string][]any
	// score overrides the metric's reported score (default: the mean).
	score map[string]float64
	hib   map[string]bool
}

// fakeGroup aggregates tasks as lm-eval does: the size-weighted or plain
// mean of its members' scores for each metric.
type fakeGroup struct {
	name    string
	members []string
	bySize  bool
}

// writeRun writes a run as lmeval run --output_path dir --log_samples
// does: dir/<model>/results_<date>.json and the samples files.
func writeRun(t *testing.T, dir, model string, tasks []fakeTask, groups []fakeGroup) string {
	t.Helper()
	res := results.New()
	res.ModelName = model
	type agg struct {
		v float64
		n int
	}
	scores := map[string]map[string]agg{}
	layout := output.NewLayout(dir, model, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	if err := os.MkdirAll(layout.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ft := range tasks {
		hib := results.NewOrderedMap[bool]()
		for m := range ft.metrics {
			h, ok := ft.hib[m]
			hib.Set(m, h || !ok)
		}
		e := res.AddTask(results.Task{Name: ft.name, HigherIsBetter: hib, NSamples: results.NSamples{Original: len(ft.docs), Effective: len(ft.docs)}})
		scores[ft.name] = map[string]agg{}
		var samples []*results.Sample
		for i, doc := range ft.docs {
			m := results.NewOrderedMap[any]()
			for _, name := range sortedKeys(ft.metrics) {
				m.Set(name, ft.metrics[name][i])
			}
			samples = append(samples, results.NewSample(i, doc, "0", [][]any{{ft.prompts[i], " x"}}, nil, nil, "none", m))
		}
		for _, name := range sortedKeys(ft.metrics) {
			v, ok := ft.score[name]
			if !ok {
				s, n := 0.0, 0
				for _, x := range ft.metrics[name] {
					f, _ := x.(float64)
					if b, isBool := x.(bool); isBool && b {
						f = 1
					}
					s += f
					n++
				}
				v = s / float64(n)
			}
			results.SetMetric(e, name, "none", v, 0.01, true)
			scores[ft.name][name] = agg{v, len(ft.docs)}
		}
		if err := os.WriteFile(layout.SamplesFile(ft.name), results.WriteSamples(samples), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range groups {
		e := res.AddGroup(results.Group{Name: g.name, Subtasks: g.members, Aggregated: true})
		scores[g.name] = map[string]agg{}
		for metric := range scores[g.members[0]] {
			s, n := 0.0, 0
			for _, m := range g.members {
				a := scores[m][metric]
				if g.bySize {
					s += a.v * float64(a.n)
				} else {
					s += a.v
				}
				n += a.n
			}
			v := s / float64(len(g.members))
			if g.bySize {
				v = s / float64(n)
			}
			results.SetMetric(e, metric, "none", v, 0.01, true)
			scores[g.name][metric] = agg{v, n}
		}
	}
	if err := layout.WriteResults(res); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// binaryTask makes n documents with 0/1 acc: a's pattern, and b equal to
// a except for the given flips.
func binaryTask(name string, n int, a func(i int) bool, flip func(i int) bool) (fakeTask, fakeTask, []float64, []float64) {
	ta := fakeTask{name: name, metrics: map[string][]any{"acc": nil}}
	tb := fakeTask{name: name, metrics: map[string][]any{"acc": nil}}
	var va, vb []float64
	for i := 0; i < n; i++ {
		doc := map[string]any{"q": fmt.Sprintf("question %d", i), "passage": fmt.Sprintf("passage %d", i/4)}
		prompt := fmt.Sprintf("Q: question %d\nA:", i)
		ta.docs, tb.docs = append(ta.docs, doc), append(tb.docs, doc)
		ta.prompts, tb.prompts = append(ta.prompts, prompt), append(tb.prompts, prompt)
		x := a(i)
		y := x != flip(i)
		ta.metrics["acc"] = append(ta.metrics["acc"], b2f(x))
		tb.metrics["acc"] = append(tb.metrics["acc"], b2f(y))
		va, vb = append(va, b2f(x)), append(vb, b2f(y))
	}
	return ta, tb, va, vb
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func continuousTask(name string, n int, shift float64) (fakeTask, fakeTask, []float64, []float64) {
	ta := fakeTask{name: name, metrics: map[string][]any{"mc2": nil}}
	tb := fakeTask{name: name, metrics: map[string][]any{"mc2": nil}}
	var va, vb []float64
	for i := 0; i < n; i++ {
		doc := map[string]any{"q": fmt.Sprintf("c %d", i)}
		ta.docs, tb.docs = append(ta.docs, doc), append(tb.docs, doc)
		p := fmt.Sprintf("C%d", i)
		ta.prompts, tb.prompts = append(ta.prompts, p), append(tb.prompts, p)
		x := 0.5 + 0.4*math.Sin(float64(i))
		y := x + shift + 0.05*math.Cos(float64(7*i))
		ta.metrics["mc2"] = append(ta.metrics["mc2"], x)
		tb.metrics["mc2"] = append(tb.metrics["mc2"], y)
		va, vb = append(va, x), append(vb, y)
	}
	return ta, tb, va, vb
}

func load(t *testing.T, paths ...string) []*Run {
	t.Helper()
	var runs []*Run
	for _, p := range paths {
		r, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs
}

func row(t *testing.T, rows []*Row, name, key string) *Row {
	t.Helper()
	for _, r := range rows {
		if r.Name == name && r.Key() == key {
			return r
		}
	}
	t.Fatalf("no row %s %s", name, key)
	return nil
}

// Each task row carries exactly what stats.Compare computes on the
// documents' values, read back from the files; Holm runs over the tasks.
func TestCompareTasks(t *testing.T) {
	dir := t.TempDir()
	// B fixes 30 of A's wrong answers and breaks 5 of its right ones.
	fixed, broken := 0, 0
	ba, bb, va, vb := binaryTask("bin_task", 300, func(i int) bool { return i%3 != 0 }, func(i int) bool {
		switch {
		case i%3 == 0 && fixed < 30:
			fixed++
			return true
		case i%3 == 1 && broken < 5:
			broken++
			return true
		}
		return false
	})
	ca, cb, ca1, cb1 := continuousTask("cont_task", 80, 0.01)
	a := writeRun(t, filepath.Join(dir, "a"), "model-a", []fakeTask{ba, ca}, nil)
	b := writeRun(t, filepath.Join(dir, "b"), "model-b", []fakeTask{bb, cb}, nil)
	runs := load(t, a, b)
	// What the hashes cannot show is noted: the context limit and the
	// requests cut to fit it.
	runs[0].LMEval = &results.LMEval{Engine: map[string]any{"max_length": 2048.0}}
	runs[1].LMEval = &results.LMEval{Engine: map[string]any{"max_length": 128.0},
		DataProblems: map[string]results.DataProblems{"cont_task": {Truncated: 12}}}
	rep, err := Compare(runs, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Comparisons[0]
	if strings.Join(c.Notes, "\n") != "the runs' max_length differs (model-a: 2048, model-b: 128): long prompts are cut differently\n"+
		"cont_task: requests cut to fit the context: 0 in model-a, 12 in model-b; their scores may differ for that reason alone" {
		t.Errorf("notes: %q", c.Notes)
	}
	if c.A != "model-a" || c.B != "model-b" || len(c.Tasks) != 2 || c.HolmTasks != 2 {
		t.Fatalf("comparison %+v", c)
	}
	bin := row(t, c.Tasks, "bin_task", "acc,none")
	want := stats.Compare(va, vb, stats.Options{Seed: 7 ^ seedHash("bin_task", "acc,none")})
	if got := bin.Paired; got == nil || got.Test != stats.TestMcNemar || got.McNemar.B != 5 || got.McNemar.C != 30 ||
		got.P != want.P || got.Diff != want.Diff || got.Boot.Low != want.Boot.Low || got.MDE != want.MDE {
		t.Fatalf("bin_task: %+v, want %+v", got, want)
	}
	cont := row(t, c.Tasks, "cont_task", "mc2,none")
	wantC := stats.Compare(ca1, cb1, stats.Options{Seed: 7 ^ seedHash("cont_task", "mc2,none")})
	if got := cont.Paired; got == nil || got.Test != stats.TestPairedT || got.P != wantC.P || got.SE != wantC.SE {
		t.Fatalf("cont_task: %+v, want %+v", got, wantC)
	}
	// Holm over the two tests.
	adj := stats.Holm([]float64{want.P, wantC.P})
	if float64(bin.PHolm) != adj[0] || float64(cont.PHolm) != adj[1] {
		t.Errorf("Holm: %v %v, want %v", bin.PHolm, cont.PHolm, adj)
	}
	if !bin.Significant || bin.Verdict != "B significantly better" {
		t.Errorf("bin_task verdict %q (p %v)", bin.Verdict, bin.PHolm)
	}
	if !cont.Significant || cont.Verdict != "B significantly better" {
		t.Errorf("cont_task verdict %q (p %v)", cont.Verdict, cont.PHolm)
	}
	if float64(bin.ValueA) != bin.Paired.MeanA || float64(bin.ValueB) != bin.Paired.MeanB {
		t.Errorf("scores %v %v vs means %v %v", bin.ValueA, bin.ValueB, bin.Paired.MeanA, bin.Paired.MeanB)
	}

	// Lower is better: the same difference reads as worse.
	ca.hib, cb.hib = map[string]bool{"mc2": false}, map[string]bool{"mc2": false}
	a2 := writeRun(t, filepath.Join(dir, "a2"), "model-a", []fakeTask{ca}, nil)
	b2 := writeRun(t, filepath.Join(dir, "b2"), "model-b", []fakeTask{cb}, nil)
	rep, err = Compare(load(t, a2, b2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Comparisons[0].Tasks[0].Verdict; v != "B significantly worse" {
		t.Errorf("lower is better: verdict %q", v)
	}
}

func seedHash(task, key string) uint64 {
	p := &pairing{}
	return p.seed(task, key)
}

// Runs whose documents, prompts or targets differ are refused, naming the
// task and the first differing document.
func TestCompareRefusesDifferentDocuments(t *testing.T) {
	dir := t.TempDir()
	ta, tb, _, _ := binaryTask("bin_task", 40, func(i int) bool { return i%2 == 0 }, func(int) bool { return false })
	a := writeRun(t, filepath.Join(dir, "a"), "A", []fakeTask{ta}, nil)
	cases := []struct {
		name string
		edit func(*fakeTask)
		want string
	}{
		{"document", func(f *fakeTask) { f.docs[17] = map[string]any{"q": "other"} }, "task bin_task: doc_id 17: the documents differ"},
		{"prompt", func(f *fakeTask) { f.prompts[3] = "Few-shot\n\n" + f.prompts[3] }, "task bin_task: doc_id 3: the prompts differ"},
		{"missing document", func(f *fakeTask) {
			f.docs, f.prompts, f.metrics["acc"] = f.docs[:39], f.prompts[:39], f.metrics["acc"][:39]
		}, "doc_id 39 is in A but not in B"},
	}
	for i, c := range cases {
		b := tb
		b.docs = append([]map[string]any(nil), tb.docs...)
		b.prompts = append([]string(nil), tb.prompts...)
		b.metrics = map[string][]any{"acc": append([]any(nil), tb.metrics["acc"]...)}
		c.edit(&b)
		bdir := writeRun(t, filepath.Join(dir, fmt.Sprint("b", i)), "B", []fakeTask{b}, nil)
		_, err := Compare(load(t, a, bdir), Options{Iters: -1})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cannot be paired") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Groups: a size-weighted group is one paired sample of all its
// documents, clustered by task; a plain mean of its tasks is a stratified
// combination. Which one a group is comes from its reported score.
func TestCompareGroups(t *testing.T) {
	dir := t.TempDir()
	a1, b1, va1, vb1 := binaryTask("sub_one", 120, func(i int) bool { return i%2 == 0 }, func(i int) bool { return i%7 == 0 })
	a2, b2, va2, vb2 := binaryTask("sub_two", 60, func(i int) bool { return i%3 == 0 }, func(i int) bool { return i%5 == 0 })
	groups := []fakeGroup{{"grp_size", []string{"sub_one", "sub_two"}, true}, {"grp_mean", []string{"sub_one", "sub_two"}, false}}
	a := writeRun(t, filepath.Join(dir, "a"), "A", []fakeTask{a1, a2}, groups)
	b := writeRun(t, filepath.Join(dir, "b"), "B", []fakeTask{b1, b2}, groups)
	rep, err := Compare(load(t, a, b), Options{Iters: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Comparisons[0]
	if len(c.Groups) != 2 || c.HolmGroups != 2 || c.HolmTasks != 2 {
		t.Fatalf("groups %d (Holm %d), tasks Holm %d", len(c.Groups), c.HolmGroups, c.HolmTasks)
	}
	pooled := row(t, c.Groups, "grp_size", "acc,none")
	pa, pb := append(append([]float64(nil), va1...), va2...), append(append([]float64(nil), vb1...), vb2...)
	cl := make([]int, len(pa))
	for i := range cl {
		if i >= len(va1) {
			cl[i] = 1
		}
	}
	want := stats.Compare(pa, pb, stats.Options{Iters: -1, Clusters: cl})
	if r := pooled.Paired; pooled.Weighting != Pooled || r.P != want.P || r.Diff != want.Diff || r.Cluster == nil ||
		r.Cluster.SE != want.Cluster.SE || pooled.ClusterKey != "task" || r.Boot == nil || r.Boot.Iters != 2000 {
		t.Fatalf("pooled group %+v (%s), want %+v", r, pooled.Weighting, want)
	}
	if math.Abs(pooled.Paired.Diff-(float64(pooled.ValueB)-float64(pooled.ValueA))) > 1e-12 {
		t.Errorf("pooled Δ %v vs reported %v - %v", pooled.Paired.Diff, pooled.ValueB, pooled.ValueA)
	}
	macro := row(t, c.Groups, "grp_mean", "acc,none")
	t1, t2 := row(t, c.Tasks, "sub_one", "acc,none").Paired, row(t, c.Tasks, "sub_two", "acc,none").Paired
	wantM := stats.Stratified([]stats.Result{*t1, *t2}, []float64{0.5, 0.5}, 0.05, 0.8)
	if r := macro.Paired; macro.Weighting != Stratified || r.Test != stats.TestStratifiedZ || r.SE != wantM.SE || r.P != wantM.P {
		t.Fatalf("macro group %+v, want %+v", r, wantM)
	}
	if math.Abs(macro.Paired.Diff-(float64(macro.ValueB)-float64(macro.ValueA))) > 1e-12 {
		t.Errorf("macro Δ %v vs reported %v - %v", macro.Paired.Diff, macro.ValueB, macro.ValueA)
	}

	// A group whose score is neither average is reported, not tested.
	bad := []fakeGroup{{"grp_size", []string{"sub_one", "sub_two"}, true}}
	a3 := writeRun(t, filepath.Join(dir, "a3"), "A", []fakeTask{a1, a2}, bad)
	b1.score = map[string]float64{"acc": 0.123}
	b3 := writeRun(t, filepath.Join(dir, "b3"), "B", []fakeTask{b1, b2}, bad)
	rep, err = Compare(load(t, a3, b3), Options{Iters: -1})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Comparisons[0].Groups[0]; r.Paired != nil || !strings.Contains(r.Note, "per-document") {
		t.Errorf("group over a task without a mean: %+v", r)
	}
}

// Clusters: a family's documented key (boolq: passage), --cluster's
// field, and a field some documents lack.
func TestCompareClusters(t *testing.T) {
	dir := t.TempDir()
	ta, tb, va, vb := binaryTask("boolq", 80, func(i int) bool { return i%2 == 0 }, func(i int) bool { return i%9 == 0 })
	a := writeRun(t, filepath.Join(dir, "a"), "A", []fakeTask{ta}, nil)
	b := writeRun(t, filepath.Join(dir, "b"), "B", []fakeTask{tb}, nil)
	rep, err := Compare(load(t, a, b), Options{Iters: -1})
	if err != nil {
		t.Fatal(err)
	}
	cl := make([]int, 80)
	for i := range cl {
		cl[i] = i / 4
	}
	want := stats.ClusteredT(diff(va, vb), cl, 0.05)
	r := rep.Comparisons[0].Tasks[0]
	if r.ClusterKey != "passage" || r.Paired.Cluster == nil || r.Paired.Cluster.Clusters != 20 || r.Paired.Cluster.SE != want.SE {
		t.Errorf("boolq clustered by passage: %+v %+v, want %+v", r.ClusterKey, r.Paired.Cluster, want)
	}
	rep, err = Compare(load(t, a, b), Options{Iters: -1, Cluster: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Comparisons[0].Tasks[0]; r.ClusterKey != "q" || r.Paired.Cluster.Clusters != 80 {
		t.Errorf("--cluster q: %+v", r.Paired.Cluster)
	}
	// A field only some documents have is an error with --cluster.
	ta.docs[5] = map[string]any{"q": "question 5"}
	tb.docs[5] = ta.docs[5]
	a = writeRun(t, filepath.Join(dir, "a2"), "A", []fakeTask{ta}, nil)
	b = writeRun(t, filepath.Join(dir, "b2"), "B", []fakeTask{tb}, nil)
	if _, err := Compare(load(t, a, b), Options{Iters: -1, Cluster: "passage"}); err == nil ||
		!strings.Contains(err.Error(), `task boolq, doc_id 5 has no field "passage"`) {
		t.Errorf("missing cluster field: %v", err)
	}
}

func diff(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = b[i] - a[i]
	}
	return d
}

// Metrics without per-document numbers, or whose score is not their mean,
// get the difference only; NaN documents are left out and counted.
func TestCompareCorpusMetricsAndNaN(t *testing.T) {
	dir := t.TempDir()
	mk := func(shift float64) fakeTask {
		f := fakeTask{name: "gen_task", metrics: map[string][]any{"bleu": nil, "f1": nil, "em": nil}, score: map[string]float64{"bleu": 12.5 + shift, "f1": 0.9}}
		for i := 0; i < 30; i++ {
			f.docs = append(f.docs, map[string]any{"i": float64(i)})
			f.prompts = append(f.prompts, fmt.Sprint("P", i))
			f.metrics["bleu"] = append(f.metrics["bleu"], []any{"ref", "pred"})
			f.metrics["f1"] = append(f.metrics["f1"], 0.5)
			v := any(float64(i % 2))
			if i == 4 || (shift > 0 && i == 9) {
				v = math.NaN()
			}
			f.metrics["em"] = append(f.metrics["em"], v)
		}
		f.score["em"] = math.NaN()
		return f
	}
	a := writeRun(t, filepath.Join(dir, "a"), "A", []fakeTask{mk(0)}, nil)
	b := writeRun(t, filepath.Join(dir, "b"), "B", []fakeTask{mk(1)}, nil)
	rep, err := Compare(load(t, a, b), Options{Iters: -1})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Comparisons[0]
	if r := row(t, c.Tasks, "gen_task", "bleu,none"); r.Paired != nil || !strings.Contains(r.Note, "corpus-level") || !strings.HasPrefix(r.Verdict, "not tested") {
		t.Errorf("bleu: %+v", r)
	}
	if r := row(t, c.Tasks, "gen_task", "f1,none"); r.Paired != nil || !strings.Contains(r.Note, "not the mean") {
		t.Errorf("f1: %+v", r)
	}
	if r := row(t, c.Tasks, "gen_task", "em,none"); r.Paired == nil || r.Paired.Dropped != 2 || r.Paired.N != 28 || r.Paired.Test != stats.TestMcNemar {
		t.Errorf("em with NaN: %+v", r.Paired)
	}
}

// The files a run may be named by, and the errors that say what is
// wrong.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	ta, _, _, _ := binaryTask("bin_task", 10, func(i int) bool { return i%2 == 0 }, func(int) bool { return false })
	ca, _, _, _ := continuousTask("cont_task", 10, 0)
	writeRun(t, filepath.Join(dir, "out"), "model-x", []fakeTask{ta}, nil)
	sub := filepath.Join(dir, "out", "model-x")
	for _, p := range []string{filepath.Join(dir, "out"), sub} {
		r, err := Load(p)
		if err != nil || r.Label != "model-x" || len(r.Tasks) != 1 || len(r.Tasks["bin_task"].Docs["none"]) != 10 {
			t.Errorf("Load(%s): %+v, %v", p, r, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(sub, "results_*.json"))
	if r, err := Load(files[0]); err != nil || len(r.Tasks) != 1 {
		t.Errorf("Load(results file): %v", err)
	}
	// A later part of the same run (another results file) adds its task.
	later := output.NewLayout(filepath.Join(dir, "out"), "model-x", time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	tmp := writeRun(t, filepath.Join(dir, "tmp"), "model-x", []fakeTask{ca}, nil)
	m, _ := filepath.Glob(filepath.Join(tmp, "model-x", "*"))
	for _, f := range m {
		data, _ := os.ReadFile(f)
		name := strings.Replace(filepath.Base(f), "2026-12-01T10-00-00", later.DateID, 1)
		os.WriteFile(filepath.Join(sub, name), data, 0o644)
	}
	if r, err := Load(sub); err != nil || len(r.Tasks) != 2 || len(r.Files) != 2 {
		t.Errorf("two results files: %+v, %v", r, err)
	}

	writeRun(t, filepath.Join(dir, "out"), "model-y", []fakeTask{ta}, nil)
	os.Remove(filepath.Join(dir, "out", "model-y", "samples_bin_task_2026-12-01T10-00-00.jsonl"))
	writeRun(t, filepath.Join(dir, "part"), "model-z", []fakeTask{ta}, nil)
	sf := filepath.Join(dir, "part", "model-z", "samples_bin_task_2026-12-01T10-00-00.jsonl")
	os.Rename(sf, sf+output.PartialSuffix)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "out"), "holds runs of several models (model-x, model-y)"},
		{filepath.Join(dir, "out", "model-y"), "needs --log_samples"},
		{filepath.Join(dir, "part"), "is partial: the run did not finish"},
		{filepath.Join(dir, "nothing"), "no such file"},
		{dir, "no results_*.json"},
	} {
		if _, err := Load(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s): %v, want %q", c.path, err, c.want)
		}
	}
}

func TestExpandSweep(t *testing.T) {
	dir := t.TempDir()
	sw := `{"models": [{"name": "Q8_0", "run_dir": "Q8_0"}, {"name": "F16", "is_base": true, "run_dir": "F16"}, {"name": "Q2_K", "error": "refused"}]}`
	os.WriteFile(filepath.Join(dir, SweepFile), []byte(sw), 0o644)
	got, err := Expand([]string{"x", dir})
	if err != nil || strings.Join(got, ",") != "x,"+filepath.Join(dir, "F16")+","+filepath.Join(dir, "Q8_0") {
		t.Errorf("Expand: %v %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, SweepFile), []byte(`{"models": [{"name": "F16"}]}`), 0o644)
	if _, err := Expand([]string{dir}); err == nil || !strings.Contains(err.Error(), "--log_samples") {
		t.Errorf("sweep without runs: %v", err)
	}
}

// The table says in words what is significant; the JSON reads back (NaN
// as null); the HTML page holds its plot and fetches nothing.
func TestWriters(t *testing.T) {
	dir := t.TempDir()
	ba, bb, _, _ := binaryTask("bin_task", 200, func(i int) bool { return i%2 == 0 }, func(i int) bool { return i%2 == 1 && i < 60 })
	ea, eb, _, _ := binaryTask("same_task", 20, func(i int) bool { return i%2 == 0 }, func(int) bool { return false })
	a := writeRun(t, filepath.Join(dir, "a"), "A", []fakeTask{ba, ea}, nil)
	b := writeRun(t, filepath.Join(dir, "b"), "B", []fakeTask{bb, eb}, nil)
	rep, err := Compare(load(t, a, b), Options{Iters: 500})
	if err != nil {
		t.Fatal(err)
	}
	var tab bytes.Buffer
	if err := WriteTable(&tab, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"|bin_task ", "McNemar 0/30", "significantly better: bin_task acc,none (Δ +0.1500",
		"the same score on every document: same_task acc,none", "95% CI (bootstrap)"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("JSON does not read back: %v", err)
	}
	same := back.Comparisons[0].Tasks[1]
	if same.Paired == nil || !math.IsNaN(same.Paired.MDE) || same.Paired.McNemar.B != 0 || back.Comparisons[0].Tasks[0].Paired.Boot.Iters != 500 {
		t.Errorf("JSON round trip: %+v", same.Paired)
	}
	if !strings.Contains(js.String(), `"mde": null`) {
		t.Errorf("NaN not written as null")
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, rep); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	if !strings.Contains(h, "<svg") || strings.Contains(h, "<?xml") || !strings.Contains(h, "bin_task acc") {
		t.Errorf("page lacks its inline plot")
	}
	for _, bad := range []string{"<script", "<link", "src=", "@import", "url("} {
		if strings.Contains(h, bad) {
			t.Errorf("page is not self-contained: %q", bad)
		}
	}
}
