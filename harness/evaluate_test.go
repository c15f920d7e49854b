package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
)

// testRegistry indexes the built-in tasks and the toy tasks of
// testdata/tasks.
func testRegistry(t *testing.T) *task.Registry {
	t.Helper()
	r, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{"testdata/tasks"}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// evaluate is NewPlan then Plan.Evaluate: cfg's tasks run on lm.
func evaluate(ctx context.Context, cfg *config.Config, lm model.LM, opts ...Option) (*results.Results, error) {
	p, err := NewPlan(cfg, opts...)
	if err != nil {
		return nil, err
	}
	return p.Evaluate(ctx, lm)
}

func testConfig(t *testing.T, tasks ...string) *config.Config {
	t.Helper()
	cfg, err := testConfigB(tasks...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func testConfigB(tasks ...string) (*config.Config, error) {
	return config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
		"model": "dummy", "tasks": tasks, "bootstrap_iters": "1000",
	}})
}

// memSamples collects samples in memory.
type memSamples struct {
	mu      sync.Mutex
	byTask  map[string][]*results.Sample
	closed  map[string]bool
	current string
}

type memWriter struct {
	m    *memSamples
	task string
}

func (w memWriter) Write(s any) error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.byTask[w.task] = append(w.m.byTask[w.task], s.(*results.Sample))
	return nil
}

func (w memWriter) Close() error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.closed[w.task] = true
	return nil
}

func newMemSamples() *memSamples {
	return &memSamples{byTask: map[string][]*results.Sample{}, closed: map[string]bool{}}
}

func (m *memSamples) open(name string) (SampleWriter, error) { return memWriter{m, name}, nil }

// readJSONL reads a test data file.
func readJSONL(t *testing.T, p string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// recordingLM wraps an LM and counts the requests it is sent.
type recordingLM struct {
	model.LM
	mu    sync.Mutex
	calls map[string]int
	reqs  map[string]int
}

func (r *recordingLM) count(kind string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls, r.reqs = map[string]int{}, map[string]int{}
	}
	r.calls[kind]++
	r.reqs[kind] += n
}

func (r *recordingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	r.count("loglikelihood", len(reqs))
	return r.LM.Loglikelihood(ctx, reqs)
}

func (r *recordingLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	r.count("loglikelihood_rolling", len(reqs))
	return r.LM.LoglikelihoodRolling(ctx, reqs)
}

func (r *recordingLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	r.count("generate_until", len(reqs))
	return r.LM.GenerateUntil(ctx, reqs)
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func stderrOf(xs []float64) float64 {
	m := mean(xs)
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}

// expectedMC scores a toy multiple-choice file independently: prompts
// written out by hand, log-likelihoods asked of lm one by one.
func expectedMC(t *testing.T, lm model.LM, file string) (acc, accNorm, mi []float64) {
	t.Helper()
	ctx := context.Background()
	for _, d := range readJSONL(t, file) {
		prompt := fmt.Sprintf("Q: %s\nA:", d["question"])
		var lls, norm, mis []float64
		for _, c := range d["choices"].([]any) {
			ch := c.(string)
			res, err := lm.Loglikelihood(ctx, []model.LoglikelihoodRequest{{Context: prompt, Continuation: " " + ch}})
			if err != nil {
				t.Fatal(err)
			}
			un, err := lm.Loglikelihood(ctx, []model.LoglikelihoodRequest{{Context: "", Continuation: " " + ch}})
			if err != nil {
				t.Fatal(err)
			}
			lls = append(lls, res[0].LogProb)
			norm = append(norm, res[0].LogProb/float64(len(ch))) // the choice without its delimiter, as lm-eval
			mis = append(mis, res[0].LogProb-un[0].LogProb)
		}
		gold := int(d["label"].(float64))
		b := func(ok bool) float64 {
			if ok {
				return 1
			}
			return 0
		}
		acc = append(acc, b(argmax(lls) == gold))
		accNorm = append(accNorm, b(argmax(norm) == gold))
		mi = append(mi, b(argmax(mis) == gold))
	}
	return acc, accNorm, mi
}

func getNum(t *testing.T, e *results.Entry, key string) float64 {
	t.Helper()
	v, ok := e.Get(key)
	if !ok {
		t.Fatalf("no %q in %v", key, e.Keys())
	}
	switch x := v.(type) {
	case results.Float:
		return float64(x)
	case float64:
		return x
	}
	t.Fatalf("%s = %v (%T), want a number", key, v, v)
	return 0
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestEvaluateDummy runs the toy tasks end to end with the dummy model and
// checks every number against an independent computation.
func TestEvaluateDummy(t *testing.T) {
	lm, err := dummy.New(model.Args{"seed": "7"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingLM{LM: lm}
	cfg := testConfig(t, "toy_group", "toy_gen", "toy_ppl")
	samples := newMemSamples()
	res, err := evaluate(context.Background(), cfg, rec,
		WithRegistry(testRegistry(t)), WithSamples(samples.open), WithWriteOut(&strings.Builder{}))
	if err != nil {
		t.Fatal(err)
	}

	// One call per request type, duplicates removed: toy_mc and toy_mc_b
	// share their unconditional " blue"-style requests only within a task,
	// but the group's two tasks ask for acc_mutual_info only in toy_mc.
	if rec.calls["loglikelihood"] != 1 || rec.calls["generate_until"] != 1 || rec.calls["loglikelihood_rolling"] != 1 {
		t.Errorf("calls = %v, want one per request type", rec.calls)
	}
	// toy_mc: every choice conditionally, each distinct choice once
	// unconditionally (acc_mutual_info); toy_mc_b: every choice.
	nMC, uMC := countChoices(t, "testdata/data/mc.jsonl")
	nB, _ := countChoices(t, "testdata/data/mc_b.jsonl")
	if got, want := rec.reqs["loglikelihood"], nMC+uMC+nB; got != want {
		t.Errorf("loglikelihood requests = %d, want %d", got, want)
	}

	// Multiple choice, against a by-hand computation.
	acc, accNorm, mi := expectedMC(t, lm, "testdata/data/mc.jsonl")
	e, ok := res.Results.Get("toy_mc")
	if !ok {
		t.Fatalf("no toy_mc in results: %v", res.Results.Keys())
	}
	for _, c := range []struct {
		key  string
		vals []float64
	}{{"acc", acc}, {"acc_norm", accNorm}, {"acc_mutual_info", mi}} {
		if got := getNum(t, e, c.key+",none"); !near(got, mean(c.vals)) {
			t.Errorf("toy_mc %s = %v, want %v", c.key, got, mean(c.vals))
		}
		if got := getNum(t, e, c.key+"_stderr,none"); !near(got, stderrOf(c.vals)) {
			t.Errorf("toy_mc %s stderr = %v, want %v", c.key, got, stderrOf(c.vals))
		}
	}
	// The alias is the task's own; the table indents it under its group.
	if a, _ := e.Get("alias"); a != "toy_mc" {
		t.Errorf("toy_mc alias = %q, want %q", a, "toy_mc")
	}
	accB, accNormB, _ := expectedMC(t, lm, "testdata/data/mc_b.jsonl")

	// The group: acc size-weighted, acc_norm macro, pooled stderr.
	g, ok := res.Groups.Get("toy_group")
	if !ok {
		t.Fatalf("no toy_group in groups")
	}
	wantAcc := (mean(acc)*6 + mean(accB)*3) / 9
	if got := getNum(t, g, "acc,none"); !near(got, wantAcc) {
		t.Errorf("group acc = %v, want %v", got, wantAcc)
	}
	wantNorm := (mean(accNorm) + mean(accNormB)) / 2
	if got := getNum(t, g, "acc_norm,none"); !near(got, wantNorm) {
		t.Errorf("group acc_norm = %v, want %v", got, wantNorm)
	}
	s1, s2 := stderrOf(acc), stderrOf(accB)
	pooled := math.Sqrt(((6-1)*s1*s1*6 + (3-1)*s2*s2*3) / (9 - 2) / 9)
	if got := getNum(t, g, "acc_stderr,none"); !near(got, pooled) {
		t.Errorf("group acc stderr = %v, want %v", got, pooled)
	}
	if _, ok := g.Get("acc_mutual_info,none"); ok {
		t.Errorf("group reports acc_mutual_info, which its aggregate_metric_list does not name")
	}
	if a, _ := g.Get("alias"); a != "toy group" {
		t.Errorf("group alias = %q", a)
	}

	// Generation with two filter pipelines: the dummy always says "lol".
	ge, _ := res.Results.Get("toy_gen")
	answers := []string{"lol", "LOL", "hello", "lol"}
	var strict, upper []float64
	for _, a := range answers {
		strict = append(strict, b2f(a == "lol"))
		upper = append(upper, b2f(a == "LOL"))
	}
	if got := getNum(t, ge, "exact_match,strict"); !near(got, mean(strict)) {
		t.Errorf("exact_match,strict = %v, want %v", got, mean(strict))
	}
	if got := getNum(t, ge, "exact_match,upper"); !near(got, mean(upper)) {
		t.Errorf("exact_match,upper = %v, want %v", got, mean(upper))
	}

	// Rolling perplexity against the dummy's own answers.
	var ll, words, bytes float64
	for _, d := range readJSONL(t, "testdata/data/ppl.jsonl") {
		text := d["text"].(string)
		r, _ := lm.LoglikelihoodRolling(context.Background(), []model.RollingRequest{{Text: text}})
		ll += r[0].LogProb
		words += float64(len(strings.Fields(text)))
		bytes += float64(len(text))
	}
	pe, _ := res.Results.Get("toy_ppl")
	for key, want := range map[string]float64{
		"word_perplexity,none": math.Exp(-ll / words),
		"byte_perplexity,none": math.Exp(-ll / bytes),
		"bits_per_byte,none":   -ll / bytes / math.Ln2,
	} {
		if got := getNum(t, pe, key); math.Abs(got-want) > 1e-9*want {
			t.Errorf("toy_ppl %s = %v, want %v", key, got, want)
		}
	}
	if v, _ := pe.Get("word_perplexity_stderr,none"); v != results.NA {
		t.Errorf("word_perplexity stderr = %v, want N/A (weighted_perplexity has none)", v)
	}

	// Samples: one per document and filter, with lm-eval's fields.
	if n := len(samples.byTask["toy_mc"]); n != 6 {
		t.Errorf("toy_mc samples = %d, want 6", n)
	}
	if n := len(samples.byTask["toy_gen"]); n != 8 {
		t.Errorf("toy_gen samples = %d, want 8 (4 documents x 2 filters)", n)
	}
	for name := range samples.byTask {
		if !samples.closed[name] {
			t.Errorf("samples of %s not closed", name)
		}
	}
	// Samples come in the order documents complete; find document 0.
	var doc0 *results.Sample
	for _, s := range samples.byTask["toy_mc"] {
		if s.DocID == 0 {
			doc0 = s
		}
	}
	if doc0 == nil {
		t.Fatal("no sample for toy_mc document 0")
	}
	line, err := json.Marshal(doc0)
	if err != nil {
		t.Fatal(err)
	}
	var rec0 map[string]any
	if err := json.Unmarshal(line, &rec0); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics", "doc_hash", "prompt_hash", "target_hash", "acc", "acc_norm", "acc_mutual_info"} {
		if _, ok := rec0[k]; !ok {
			t.Errorf("sample lacks %q: %s", k, line)
		}
	}
	if got, want := rec0["prompt_hash"], results.HashString("Q: What color is the sky?\nA:"); got != want {
		t.Errorf("prompt_hash = %v, want %v", got, want)
	}

	data, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, data)
	table := res.Tables()
	for _, want := range []string{"Tasks", "toy_mc", "toy mc b", "acc_norm", "exact_match", "strict", "word_perplexity", "Groups", "toy group"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	t.Logf("\n%s", table)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// countChoices counts a toy file's choices, all and distinct.
func countChoices(t *testing.T, file string) (all, distinct int) {
	seen := map[string]bool{}
	for _, d := range readJSONL(t, file) {
		for _, c := range d["choices"].([]any) {
			seen[c.(string)] = true
			all++
		}
	}
	return all, len(seen)
}

// checkSchema validates a results file against lm-eval's schema: its keys
// and their types.
func checkSchema(t *testing.T, data []byte) {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("results JSON: %v", err)
	}
	for _, k := range []string{"results", "group_subtasks", "configs", "versions", "n-shot", "higher_is_better", "n-samples", "config", "git_hash", "date",
		"task_hashes", "model_source", "model_name", "model_name_sanitized", "system_instruction", "system_instruction_sha",
		"fewshot_as_multiturn", "chat_template", "chat_template_sha", "total_evaluation_time_seconds"} {
		if _, ok := top[k]; !ok {
			t.Errorf("results JSON lacks %q", k)
		}
	}
	obj := func(v any, what string) map[string]any {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: want an object, got %T", what, v)
		}
		return m
	}
	checkEntries := func(section string) {
		for name, v := range obj(top[section], section) {
			e := obj(v, section+"."+name)
			// lm-eval's _TaskMetrics: name, alias, sample_len (a group
			// without aggregation has none), sample_count (groups only).
			if _, ok := e["alias"].(string); !ok {
				t.Errorf("%s.%s: alias is not a string", section, name)
			}
			if e["name"] != name {
				t.Errorf("%s.%s: name is %v", section, name, e["name"])
			}
			if n, ok := e["sample_len"]; ok {
				if _, ok := n.(float64); !ok {
					t.Errorf("%s.%s: sample_len is %T", section, name, n)
				}
			}
			for k, x := range e {
				switch k {
				case "alias", "name", "sample_len":
					continue
				case "sample_count":
					if _, ok := x.(map[string]any); !ok {
						t.Errorf("%s.%s: sample_count is %T", section, name, x)
					}
					continue
				}
				if !strings.Contains(k, ",") {
					t.Errorf("%s.%s: key %q is not metric,filter", section, name, k)
				}
				switch x.(type) {
				case float64, nil:
				case string:
					if x != "N/A" || !strings.Contains(k, "_stderr,") {
						t.Errorf("%s.%s.%s = %q", section, name, k, x)
					}
				default:
					t.Errorf("%s.%s.%s: type %T", section, name, k, x)
				}
			}
		}
	}
	checkEntries("results")
	if _, ok := top["groups"]; ok {
		checkEntries("groups")
	}
	for name, v := range obj(top["group_subtasks"], "group_subtasks") {
		if _, ok := v.([]any); !ok {
			t.Errorf("group_subtasks.%s: %T", name, v)
		}
	}
	for name, v := range obj(top["n-shot"], "n-shot") {
		if _, ok := v.(float64); !ok {
			t.Errorf("n-shot.%s: %T", name, v)
		}
	}
	for name, v := range obj(top["higher_is_better"], "higher_is_better") {
		for m, b := range obj(v, "higher_is_better."+name) {
			if _, ok := b.(bool); !ok {
				t.Errorf("higher_is_better.%s.%s: %T", name, m, b)
			}
		}
	}
	for name, v := range obj(top["n-samples"], "n-samples") {
		ns := obj(v, "n-samples."+name)
		for _, k := range []string{"original", "effective"} {
			if _, ok := ns[k].(float64); !ok {
				t.Errorf("n-samples.%s.%s: %T", name, k, ns[k])
			}
		}
	}
	for name, v := range obj(top["configs"], "configs") {
		c := obj(v, "configs."+name)
		for _, k := range []string{"task", "output_type", "num_fewshot", "metadata"} {
			if _, ok := c[k]; !ok {
				t.Errorf("configs.%s lacks %s", name, k)
			}
		}
	}
	c := obj(top["config"], "config")
	for _, k := range []string{"model", "model_args", "batch_size", "batch_sizes", "device", "use_cache", "limit", "bootstrap_iters", "gen_kwargs", "random_seed", "numpy_seed", "torch_seed", "fewshot_seed"} {
		if _, ok := c[k]; !ok {
			t.Errorf("config lacks %q", k)
		}
	}
	if _, ok := c["model"].(string); !ok {
		t.Errorf("config.model: %T", c["model"])
	}
	if _, ok := top["date"].(float64); !ok {
		t.Errorf("date: %T", top["date"])
	}
	if _, ok := top["total_evaluation_time_seconds"].(string); !ok {
		t.Errorf("total_evaluation_time_seconds: %T", top["total_evaluation_time_seconds"])
	}
}

// TestEvaluateMetricsUnitsAgree checks lm-eval's bits_per_byte and
// byte_perplexity relation on the results: bpb = log2(byte_perplexity).
func TestEvaluateBitsPerByte(t *testing.T) {
	lm, _ := dummy.New(nil)
	res, err := evaluate(context.Background(), testConfig(t, "toy_ppl"), lm, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := res.Results.Get("toy_ppl")
	bpb, bp := getNum(t, e, "bits_per_byte,none"), getNum(t, e, "byte_perplexity,none")
	if math.Abs(bpb-math.Log2(bp)) > 1e-12 {
		t.Errorf("bits_per_byte %v != log2(byte_perplexity %v)", bpb, bp)
	}
	_ = metrics.Names
	_ = filepath.Join
}

// TestCacheRequests builds requests once, then serves them from the cache:
// the second run loads no documents and gives identical results.
func TestCacheRequests(t *testing.T) {
	db, err := cache.Open(filepath.Join(t.TempDir(), "requests.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lm, _ := dummy.New(nil)
	var mu sync.Mutex
	loads := 0
	loader := func(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		mu.Lock()
		loads++
		mu.Unlock()
		return fixtureLoader(ctx, spec, split)
	}
	run := func(mode string, tasks ...string) *results.Results {
		t.Helper()
		cfg := testConfig(t, tasks...)
		cfg.CacheRequests = config.CacheRequests(mode)
		res, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)), WithLoader(loader), WithRequestCache(db))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	names := []string{"arc_easy", "winogrande", "gsm8k", "wikitext", "truthfulqa_mc2"}
	first := run("true", names...)
	if loads == 0 {
		t.Fatal("first run loaded no documents")
	}
	loads = 0
	second := run("true", names...)
	if loads != 0 {
		t.Errorf("second run loaded documents %d times, want none", loads)
	}
	a, _ := json.Marshal(first.Results)
	b, _ := json.Marshal(second.Results)
	if string(a) != string(b) {
		t.Errorf("results differ after the cache:\n%s\n%s", a, b)
	}
	run("refresh", names...)
	if loads == 0 {
		t.Error("refresh did not rebuild")
	}
	loads = 0
	run("delete", "arc_easy")
	if loads == 0 {
		t.Error("delete did not rebuild")
	}
	loads = 0
	run("true", "arc_easy")
	if loads == 0 {
		t.Error("delete left cached requests behind")
	}
	// A different shot count is a different entry.
	loads = 0
	cfg := testConfig(t, "arc_easy|2")
	cfg.CacheRequests = config.CacheRequestsTrue
	if _, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)), WithLoader(loader), WithRequestCache(db)); err != nil {
		t.Fatal(err)
	}
	if loads == 0 {
		t.Error("2-shot run used the 0-shot requests")
	}
}

// TestRepeats checks that a sampled task's repeats are distinct requests
// (a seed each), greedy repeats one, and that every answer reaches its
// document.
func TestRepeats(t *testing.T) {
	lm, _ := dummy.New(nil)
	rec := &recordingLM{LM: lm}
	samples := newMemSamples()
	res, err := evaluate(context.Background(), testConfig(t, "toy_gen_sc"), rec, WithRegistry(testRegistry(t)), WithSamples(samples.open))
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.reqs["generate_until"]; got != 4*3 {
		t.Errorf("generate_until requests = %d, want 12 (4 documents x 3 sampled repeats)", got)
	}
	e, _ := res.Results.Get("toy_gen_sc")
	if got := getNum(t, e, "exact_match,maj@3"); got != 0.5 {
		t.Errorf("exact_match,maj@3 = %v, want 0.5 (two documents answer lol)", got)
	}
	for _, s := range samples.byTask["toy_gen_sc"] {
		if len(s.Resps) != 1 || len(s.Resps[0]) != 3 {
			t.Errorf("doc %d: resps %v, want 3 answers", s.DocID, s.Resps)
		}
		if s.Filter == "first2" {
			if l, ok := s.FilteredResps[0].([]any); !ok || len(l) != 2 {
				t.Errorf("doc %d: first2 filtered %v", s.DocID, s.FilteredResps)
			}
		}
	}
}

// TestPredictOnly: generations are saved, no metrics computed (lm-eval's
// bypass metric).
func TestPredictOnly(t *testing.T) {
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_gen", "toy_mc")
	cfg.PredictOnly = true
	samples := newMemSamples()
	res, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)), WithSamples(samples.open))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := res.Results.Get("toy_gen")
	if keys := e.Keys(); len(keys) != 7 || getNum(t, e, "bypass,strict") != 999 {
		t.Errorf("toy_gen results %v, want name, alias, sample_len and bypass for two filters", keys)
	}
	if v, _ := e.Get("bypass_stderr,strict"); v != results.NA {
		t.Errorf("bypass stderr %v", v)
	}
	mc, _ := res.Results.Get("toy_mc")
	if keys := mc.Keys(); strings.Join(keys, ",") != "name,alias,sample_len" {
		t.Errorf("toy_mc results %v, want name, alias and sample_len only", keys)
	}
	if n := len(samples.byTask["toy_gen"]); n != 8 {
		t.Errorf("%d toy_gen samples, want 8", n)
	}
	if got := samples.byTask["toy_gen"][0].Resps[0][0]; got != "lol" {
		t.Errorf("saved generation %v", got)
	}
	if !res.LMEval.PredictOnly {
		t.Error("lmeval.predict_only not set")
	}
}

// cancellingLM cancels the run once it has answered n requests.
type cancellingLM struct {
	model.LM
	n      int
	cancel context.CancelFunc
	done   int
}

func (c *cancellingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	if c.done >= c.n {
		c.cancel()
		return nil, ctx.Err()
	}
	c.done += len(reqs)
	return c.LM.Loglikelihood(ctx, reqs)
}

// TestCancel stops a run midway: Evaluate returns context.Canceled, and
// the samples of the documents completed before are written and closed.
func TestCancel(t *testing.T) {
	lm, _ := dummy.New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clm := &cancellingLM{LM: lm, n: 10, cancel: cancel}
	samples := newMemSamples()
	_, err := evaluate(ctx, testConfig(t, "toy_mc"), clm, WithRegistry(testRegistry(t)), WithSamples(samples.open), WithChunkSize(5))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	got := len(samples.byTask["toy_mc"])
	if got == 0 || got >= 6 {
		t.Errorf("%d samples written before the cancel, want some but not all", got)
	}
	if !samples.closed["toy_mc"] {
		t.Error("samples not closed")
	}
}

// TestWriteOut prints the first document's prompt of each task.
func TestWriteOut(t *testing.T) {
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_mc", "toy_gen")
	cfg.WriteOut = true
	var out strings.Builder
	if _, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)), WithWriteOut(&out)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Task: toy_mc", "Q: What color is the sky?\nA:", "Task: toy_gen", "Say lol:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("write_out lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "How many legs") {
		t.Errorf("write_out printed more than the first document:\n%s", out.String())
	}
}

// TestLimitAndShots: --limit, a task's own shot count and n-samples.
func TestLimitAndShots(t *testing.T) {
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_mc|2", "toy_gen")
	cfg.Limit = config.Limit{Count: 3}
	res, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	if ns, _ := res.NSamples.Get("toy_mc"); ns != (results.NSamples{Original: 6, Effective: 3}) {
		t.Errorf("toy_mc n-samples %+v", ns)
	}
	if res.NShot["toy_mc"] != 2 || res.NShot["toy_gen"] != 0 {
		t.Errorf("n-shot %v", res.NShot)
	}
	if res.Config.Limit != 3.0 {
		t.Errorf("config.limit %v", res.Config.Limit)
	}
}

// TestSharedTask: a task in two selected groups is evaluated once and
// counts in both; a group without aggregate_metric_list gets lm-eval's
// placeholder and no row in the groups table.
func TestSharedTask(t *testing.T) {
	lm, _ := dummy.New(nil)
	rec := &recordingLM{LM: lm}
	res, err := evaluate(context.Background(), testConfig(t, "toy_group", "toy_group2", "toy_mc", "toy_plain_group"), rec, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	nMC, uMC := countChoices(t, "testdata/data/mc.jsonl")
	nB, _ := countChoices(t, "testdata/data/mc_b.jsonl")
	if got, want := rec.reqs["loglikelihood"], nMC+uMC+nB; got != want {
		t.Errorf("loglikelihood requests = %d, want %d (toy_mc once)", got, want)
	}
	g1, _ := res.Groups.Get("toy_group")
	g2, _ := res.Groups.Get("toy_group2")
	mc, _ := res.Results.Get("toy_mc")
	if got, want := getNum(t, g2, "acc,none"), getNum(t, mc, "acc,none"); got != want {
		t.Errorf("toy_group2 acc = %v, want toy_mc's %v (toy_gen has no acc)", got, want)
	}
	if getNum(t, g1, "acc,none") == 0 && getNum(t, mc, "acc,none") != 0 {
		t.Error("toy_group lost toy_mc")
	}
	subs, _ := res.GroupSubtasks.Get("toy_group2")
	if strings.Join(subs, ",") != "toy_mc,toy_gen" {
		t.Errorf("group_subtasks toy_group2 = %v", subs)
	}
	plain, ok := res.Results.Get("toy_plain_group")
	if !ok {
		t.Fatal("no toy_plain_group in results")
	}
	if keys := plain.Keys(); strings.Join(keys, ",") != "alias,name" {
		t.Errorf("toy_plain_group = %v, want its alias and name only (lm-eval's Group.aggregate)", keys)
	}
	if table := res.Table("results", false); !strings.Contains(table, "|toy_plain_group") {
		t.Errorf("the table does not name toy_plain_group:\n%s", table)
	}
	if _, ok := res.Groups.Get("toy_plain_group"); ok {
		t.Error("a group without aggregate_metric_list is in the groups table")
	}
	if ppl, _ := res.Results.Get("toy_ppl"); ppl != nil {
		if a, _ := ppl.Get("alias"); a != "toy_ppl" {
			t.Errorf("toy_ppl alias %q", a)
		}
	}
}

// TestUnknownKeyWarned: a misspelt key in a task's YAML is logged as a
// warning naming the key and the file when the task is evaluated, not only
// by `lmeval validate`.
func TestUnknownKeyWarned(t *testing.T) {
	data, err := filepath.Abs("testdata/data/mc_b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "typo.yaml")
	yaml := "task: typo_mc\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: " + data +
		"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"{{question}}\"\ndoc_to_choice: choices\n" +
		"doc_to_target: label\nnum_fewshots: 2\nmetric_list:\n  - metric: acc\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	lm, _ := dummy.New(nil)
	_, out := evaluateLogged(t, lm, []string{dir}, []string{"typo_mc"})
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "num_fewshots") || !strings.Contains(out, file) {
		t.Errorf("no warning naming the unknown key and its file:\n%s", out)
	}
	if n := strings.Count(out, "num_fewshots"); n != 1 {
		t.Errorf("the unknown key is reported %d times, want once:\n%s", n, out)
	}
}

// TestSamplesUnknownTaskWarned: --samples indices for a task that is not
// evaluated (a misspelt name) are reported, not silently ignored.
func TestSamplesUnknownTaskWarned(t *testing.T) {
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_mc")
	cfg.BootstrapIters = 0
	cfg.Samples = map[string][]int{"toy_mc": {0, 2}, "toy_mcc": {1}}
	res, err := evaluate(context.Background(), cfg, lm, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	if ns, _ := res.NSamples.Get("toy_mc"); ns.Effective != 2 {
		t.Errorf("toy_mc evaluated %d documents, want the 2 selected", ns.Effective)
	}
	out := logs.String()
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "task=toy_mcc") {
		t.Errorf("no warning naming toy_mcc:\n%s", out)
	}
	if strings.Contains(out, "task=toy_mc ") {
		t.Errorf("warned about the evaluated task:\n%s", out)
	}
}

// TestGoldOutOfRangeWarned: a gold index past the choices is scored as
// wrong (lm-eval's gold_index_error: gold becomes -100) and logged once per
// task, naming the first such document.
func TestGoldOutOfRangeWarned(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "gold.jsonl")
	docs := `{"q": "one", "choices": ["a", "b"], "label": 0}
{"q": "two", "choices": ["a", "b"], "label": 5}
{"q": "three", "choices": ["a", "b"], "label": 1}
{"q": "four", "choices": ["a", "b"], "label": 2}
`
	if err := os.WriteFile(data, []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := "task: gold_mc\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: " + data +
		"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"{{q}}\"\ndoc_to_choice: choices\n" +
		"doc_to_target: label\nmetric_list:\n  - metric: acc\n  - metric: exact_match\n"
	if err := os.WriteFile(filepath.Join(dir, "gold.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	lm, _ := dummy.New(nil)
	sink := newMemSamples()
	res, out := evaluateLogged(t, lm, []string{dir}, []string{"gold_mc"}, WithSamples(sink.open))
	if n := strings.Count(out, "gold answer is not one of the choices"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, out)
	}
	for _, w := range []string{"level=WARN", "task=gold_mc", "doc_id=1", "gold=5", "choices=2", "documents=2"} {
		if !strings.Contains(out, w) {
			t.Errorf("warning lacks %q:\n%s", w, out)
		}
	}
	if len(sink.byTask["gold_mc"]) != 4 {
		t.Fatalf("%d samples, want 4", len(sink.byTask["gold_mc"]))
	}
	for _, s := range sink.byTask["gold_mc"] {
		if s.DocID == 1 || s.DocID == 3 {
			for _, m := range []string{"acc", "exact_match"} {
				if v, _ := s.Metrics.Get(m); v != 0.0 {
					t.Errorf("document %d: %s = %v, want 0", s.DocID, m, v)
				}
			}
		}
	}
	if _, ok := res.Results.Get("gold_mc"); !ok {
		t.Error("no results for gold_mc")
	}
}
