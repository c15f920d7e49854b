package shard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/shard"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/output"
)

// The tasks of harness/testdata/shard: multiple choice with requests
// shared across documents (acc_mutual_info's unconditional ones) and
// across tasks (shard_mc_copy), a group, a bootstrapped stderr (mcc,
// bleu), generation with few-shot prompts and with sampled repeats, and
// rolling perplexity.
var testTasks = []string{"shard_group", "shard_gen", "shard_gen_sampled", "shard_ppl"}

// start is every run's start, so that samples files have the same names.
var start = time.Unix(1700000000, 0)

// env is a test's settings (as layers, as a shard records them), its
// registry and model.
type env struct {
	t      testing.TB
	layers []config.Layer
	reg    *task.Registry
	lm     model.LM
}

// newEnv moves to the harness directory (the tasks' data files are
// relative to it) and sets up the tasks with the given extra settings.
func newEnv(t *testing.T, lm model.LM, extra map[string]any) *env {
	t.Helper()
	t.Chdir("..")
	values := map[string]any{
		"model": "dummy", "model_args": []string{"seed=3"}, "tasks": testTasks, "bootstrap_iters": "200",
		"include_path": []string{"testdata/shard/tasks"}, "log_samples": "true", "output_path": "unused",
	}
	for k, v := range extra {
		values[k] = v
	}
	e := &env{t: t, layers: []config.Layer{{Source: "test", Flags: true, Values: values}}, lm: lm}
	reg, err := newRegistry(e.config())
	if err != nil {
		t.Fatal(err)
	}
	e.reg = reg
	return e
}

func newRegistry(cfg *config.Config) (*task.Registry, error) {
	reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: cfg.IncludePaths, Metadata: cfg.Metadata, NoTree: true})
	return reg, err
}

func (e *env) config() *config.Config {
	e.t.Helper()
	cfg, err := config.Resolve(e.layers...)
	if err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

func (e *env) plan(cfg *config.Config) *harness.Plan {
	e.t.Helper()
	p, err := harness.NewPlan(cfg, harness.WithRegistry(e.reg), harness.WithWriteOut(&strings.Builder{}))
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// samples writes samples files under dir, as lmeval run does with
// --log_samples (cfg's).
func samples(cfg *config.Config, dir string) ([]harness.Option, func() error) {
	if !cfg.LogSamples {
		return nil, func() error { return nil }
	}
	layout := output.NewLayout(dir, "", start)
	var ws []*output.SamplesWriter
	open := func(name string) (harness.SampleWriter, error) {
		w, err := layout.OpenSamples(name)
		ws = append(ws, w)
		return w, err
	}
	return []harness.Option{harness.WithSamples(open)}, func() error {
		for _, w := range ws {
			if err := w.Commit(); err != nil {
				return err
			}
		}
		return nil
	}
}

// evaluate is one unsharded run, its samples under dir.
func (e *env) evaluate(dir string) *results.Results {
	e.t.Helper()
	cfg := e.config()
	opt, commit := samples(cfg, dir)
	res, err := e.plan(cfg).Evaluate(context.Background(), e.lm, opt...)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := commit(); err != nil {
		e.t.Fatal(err)
	}
	return res
}

// runShard is lmeval run --shard i/n (cmd/lmeval's runShard): the shard
// file it writes under dir.
func (e *env) runShard(i, n int, dir string) string {
	e.t.Helper()
	cfg := e.config()
	w, h, err := shard.Run(context.Background(), cfg, "test", e.plan(cfg), e.lm, i, n)
	if err != nil {
		e.t.Fatal(err)
	}
	if h.Settings, err = config.EncodeLayers(e.layers); err != nil {
		e.t.Fatal(err)
	}
	h.Args = []string{"run", "--tasks=x"}
	h.Started, h.Finished, h.RunSeconds = start, start.Add(time.Second), 1
	path := filepath.Join(shard.Dir(dir, h.Run), shard.Name(i, n))
	if err := w.Write(path, h); err != nil {
		e.t.Fatal(err)
	}
	if w.Answers() != h.Requests {
		e.t.Errorf("shard %d/%d: %d answers for %d requests", i, n, w.Answers(), h.Requests)
	}
	return path
}

// merge is lmeval merge (cmd/lmeval's mergeAction), its samples under
// dir.
func (e *env) merge(paths []string, dir string) (*results.Results, error) {
	set, err := shard.Open(paths)
	if err != nil {
		return nil, err
	}
	layers, err := config.DecodeLayers(set.Header().Settings)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		return nil, err
	}
	opts, commit := samples(cfg, dir)
	res, err := set.Evaluate(context.Background(), e.plan(cfg), opts...)
	if err != nil {
		return nil, err
	}
	return res, commit()
}

// comparable is the results JSON without what differs between runs of
// the same answers: the date, the durations, the rate.
func comparable(t *testing.T, res *results.Results) string {
	t.Helper()
	res.Date, res.TotalEvalTime = 0, ""
	if res.LMEval != nil {
		res.LMEval.TokensPerSec, res.LMEval.Sharded = 0, nil
	}
	b, err := output.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameFiles checks that two directories hold the same files, byte for
// byte.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	list := func(dir string) []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return nil
		})
		return out
	}
	w, g := list(want), list(got)
	if !slices.Equal(w, g) || len(w) == 0 {
		t.Fatalf("files %v, want %v", g, w)
	}
	for _, f := range w {
		a, _ := os.ReadFile(filepath.Join(want, f))
		b, _ := os.ReadFile(filepath.Join(got, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the unsharded run's", f)
		}
	}
}

// TestMergeEqualsUnsharded: the shards of a run, merged, give the
// unsharded run's results to the last bit (the dummy model answers each
// request the same wherever it runs) and its samples files byte for
// byte, for any number of shards, one shard for every document
// included.
func TestMergeEqualsUnsharded(t *testing.T) {
	lm, _ := dummy.New(model.Args{"seed": "3"})
	e := newEnv(t, lm, nil)
	dir := t.TempDir()
	want := comparable(t, e.evaluate(filepath.Join(dir, "unsharded")))
	for _, n := range []int{1, 2, 3, 7, 200} {
		out := filepath.Join(dir, "shards", strings.Repeat("n", n%10+1))
		var paths []string
		for i := range n {
			paths = append(paths, e.runShard(i, n, out))
		}
		merged := filepath.Join(dir, "merged", strings.Repeat("n", n%10+1))
		res, err := e.merge(paths, merged)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		// The run's time is the shards' span; lmeval.sharded lists them.
		if sh := res.LMEval.Sharded; float64(res.Date) != float64(start.Unix()) || res.TotalEvalTime != "1.0" ||
			sh == nil || len(sh.Shards) != n || sh.Shards[n-1].Index != n-1 || sh.Run == "" {
			t.Errorf("%d shards: date %v, total time %s, sharded %+v", n, res.Date, res.TotalEvalTime, sh)
		}
		if got := comparable(t, res); got != want {
			t.Errorf("%d shards: the merged results differ from the unsharded run's:\n%s", n, firstDiff(want, got))
		}
		sameFiles(t, filepath.Join(dir, "unsharded"), merged)
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + al[i] + "\n  vs " + bl[i]
		}
	}
	return "lengths differ"
}

// TestMergeErrors: a missing shard, a shard given twice, shards of
// another run or another count, a file cut short: each is an error
// naming the shard or the files, before anything is scored.
func TestMergeErrors(t *testing.T) {
	lm, _ := dummy.New(model.Args{"seed": "3"})
	e := newEnv(t, lm, nil)
	dir := t.TempDir()
	var paths []string
	for i := range 3 {
		paths = append(paths, e.runShard(i, 3, filepath.Join(dir, "a")))
	}
	// A copy of shard 1 elsewhere (a rerun into another directory).
	dup := filepath.Join(dir, "b", filepath.Base(paths[1]))
	os.MkdirAll(filepath.Dir(dup), 0o755)
	data, _ := os.ReadFile(paths[1])
	os.WriteFile(dup, data, 0o644)
	// Another run: other settings (--num_fewshot).
	other := newEnvSameDir(t, e, map[string]any{"num_fewshot": "1"}).runShard(1, 3, filepath.Join(dir, "c"))
	// Shard 2 of 4 instead of 3.
	four := e.runShard(2, 4, filepath.Join(dir, "d"))
	// Shard 2 cut short.
	cut := filepath.Join(dir, "e", filepath.Base(paths[2]))
	os.MkdirAll(filepath.Dir(cut), 0o755)
	data, _ = os.ReadFile(paths[2])
	os.WriteFile(cut, data[:len(data)-200], 0o644)

	for _, c := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"missing", []string{paths[0], paths[2]}, []string{"shard 1 of 3 missing", "--shard 1/3"}},
		{"missing two", []string{paths[2]}, []string{"shards 0, 1 of 3 missing"}},
		{"duplicate", []string{paths[0], paths[1], paths[2], dup}, []string{"shard 1 of 3 is given twice", paths[1], dup}},
		{"other run", []string{paths[0], other, paths[2]}, []string{"2 different runs", "setting num_fewshot"}},
		{"other count", []string{paths[0], paths[1], four}, []string{"shard 2 of 4", "--shard 2/3"}},
		{"cut short", []string{paths[0], paths[1], cut}, []string{cut}},
		{"none", nil, []string{"no shard files"}},
	} {
		_, err := e.merge(c.paths, filepath.Join(dir, "out"))
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
	}
	// The full set merges; so does the set with shard 1 rerun (its file
	// replaced by the same shard made again).
	if _, err := e.merge(paths, filepath.Join(dir, "ok")); err != nil {
		t.Fatal(err)
	}
}

// newEnvSameDir is e with other settings, in the directory e is in.
func newEnvSameDir(t *testing.T, e *env, extra map[string]any) *env {
	values := map[string]any{}
	for k, v := range e.layers[0].Values {
		values[k] = v
	}
	for k, v := range extra {
		values[k] = v
	}
	return &env{t: t, layers: []config.Layer{{Source: "test", Flags: true, Values: values}}, reg: e.reg, lm: e.lm}
}

// TestSplit: every request goes to exactly one shard; a document's
// requests stay together unless another document asked first; the split
// is the same for every build of the run and whatever the chunk size;
// the shards' costs are balanced.
func TestSplit(t *testing.T) {
	lm, _ := dummy.New(nil)
	e := newEnv(t, lm, nil)
	ctx := context.Background()
	build := func(opts ...harness.Option) *harness.Workload {
		b, err := e.plan(e.config()).Build(ctx, nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := build()
	reqs := b.Requests()
	unique := len(reqs.Loglikelihood) + len(reqs.Rolling) + len(reqs.Generate)
	for _, n := range []int{1, 2, 4, 8} {
		sp, err := b.Split(n)
		if err != nil {
			t.Fatal(err)
		}
		// Each shard's run answers its requests, once each; all shards
		// together answer every request once.
		seen := map[[2]int]int{}
		total, maxCost, sum := 0, int64(0), int64(0)
		for i := range n {
			c := &counter{seen: seen, shard: i}
			sb := build(harness.WithShard(i, n), harness.WithChunkSize(3))
			if err := sb.Run(ctx, lm, c); err != nil {
				t.Fatal(err)
			}
			if c.n != sp.Requests(i) {
				t.Errorf("%d shards: shard %d answered %d, Split gives it %d", n, i, c.n, sp.Requests(i))
			}
			total += c.n
			maxCost = max(maxCost, sp.Cost(i))
			sum += sp.Cost(i)
		}
		if total != unique || len(seen) != unique {
			t.Errorf("%d shards: %d answers, %d distinct, for %d requests", n, total, len(seen), unique)
		}
		// The largest shard is within 15% of the mean for these 120
		// documents of costs that differ 50-fold.
		if mean := float64(sum) / float64(n); n <= 4 && float64(maxCost) > 1.15*mean {
			t.Errorf("%d shards: largest cost %d, mean %.0f", n, maxCost, mean)
		}
		// Another build splits the same way.
		sp2, _ := build().Split(n)
		for i := range n {
			if sp2.Requests(i) != sp.Requests(i) || sp2.Cost(i) != sp.Cost(i) {
				t.Errorf("%d shards: shard %d differs between two builds", n, i)
			}
		}
	}
	// Choices stay together: every multiple-choice document's choices
	// (its context plus each choice) go to one shard.
	sp, _ := b.Split(4)
	_ = sp
	c := &docCounter{reqs: reqs, shardOf: map[string]map[int]bool{}}
	for i := range 4 {
		c.shard = i
		if err := build(harness.WithShard(i, 4)).Run(ctx, lm, c); err != nil {
			t.Fatal(err)
		}
	}
	for ctxText, shards := range c.shardOf {
		if len(shards) > 1 && ctxText != "" {
			t.Errorf("the choices of the document %.40q went to shards %v", ctxText, shards)
		}
	}
	if len(c.shardOf) < 80 {
		t.Errorf("only %d multiple-choice contexts", len(c.shardOf))
	}
}

// counter counts a shard's answers.
type counter struct {
	seen  map[[2]int]int
	shard int
	n     int
}

func (c *counter) add(kind, i int) error {
	c.n++
	if s, dup := c.seen[[2]int{kind, i}]; dup {
		return errors.New("request answered by two shards: " + string(rune('0'+s)) + " and " + string(rune('0'+c.shard)))
	}
	c.seen[[2]int{kind, i}] = c.shard
	return nil
}

func (c *counter) Loglikelihood(_ context.Context, i int, _ model.LoglikelihoodResult) error {
	return c.add(0, i)
}
func (c *counter) Rolling(_ context.Context, i int, _ model.RollingResult) error { return c.add(1, i) }
func (c *counter) Generated(_ context.Context, i int, _ string) error            { return c.add(2, i) }

// docCounter records which shards each log-likelihood context went to.
type docCounter struct {
	reqs    harness.Requests
	shard   int
	shardOf map[string]map[int]bool
}

func (c *docCounter) Loglikelihood(_ context.Context, i int, _ model.LoglikelihoodResult) error {
	k := c.reqs.Loglikelihood[i].Context
	if c.shardOf[k] == nil {
		c.shardOf[k] = map[int]bool{}
	}
	c.shardOf[k][c.shard] = true
	return nil
}
func (c *docCounter) Rolling(context.Context, int, model.RollingResult) error { return nil }
func (c *docCounter) Generated(context.Context, int, string) error            { return nil }

// fakeLM is the dummy model with a tokenizer (a token per 3 bytes, a
// context of 40 tokens, so long prompts are truncated), a chat template
// and token texts: what a shard must record for the merge to rebuild the
// same prompts and count the same truncations.
type fakeLM struct{ *dummy.LM }

func (fakeLM) CountTokens(text string) (int, error) { return len(text)/3 + 1, nil }
func (fakeLM) MaxLength() int                       { return 40 }
func (fakeLM) ChatTemplate(name string) (model.ChatTemplateText, error) {
	if name != "" {
		return model.ChatTemplateText{}, model.ErrNoChatTemplate
	}
	return model.ChatTemplateText{
		Source: "{% for m in messages %}<{{ m.role }}>{{ m.content }}\n{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}",
		Origin: "fake", Tokens: model.SpecialTokens{BOS: "<s>", EOS: "</s>"},
	}, nil
}
func (fakeLM) TokenPiece(id int32) string { return "</think>" }

// Generate counts each generation's tokens (as the llama backend does),
// from the request alone, so shards count as one run would.
func (f fakeLM) Generate(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
	texts, err := f.GenerateUntil(ctx, reqs)
	if err != nil {
		return nil, err
	}
	out := make([]model.Generation, len(texts))
	for i, t := range texts {
		out[i] = model.Generation{Text: t, Tokens: len(t) + len(reqs[i].Context)%7, ReasoningTokens: len(reqs[i].Context) % 3}
	}
	return out, nil
}

// TestMergeRecordedModel: with a model that counts tokens, has a chat
// template and token texts, the merge (which has no model) rebuilds the
// shards' prompts from what they recorded — the chat template, few-shot
// truncation by tokens (task|shots|1), the think token's text — and counts
// the same truncated requests, so its results and samples are the
// unsharded run's. The recording wrapper has the model's optional
// interfaces, no more.
func TestMergeRecordedModel(t *testing.T) {
	d, _ := dummy.New(model.Args{"seed": "5"})
	lm := fakeLM{d}
	e := newEnv(t, lm, map[string]any{
		"tasks":               []string{"shard_group", "custom|shard_gen|2|1", "shard_ppl"},
		"apply_chat_template": "true",
		"system_instruction":  "Answer briefly.",
		"model_args":          []string{"seed=5,think_end_token=7"},
	})
	dir := t.TempDir()
	unsharded := e.evaluate(filepath.Join(dir, "unsharded"))
	if p := unsharded.LMEval.DataProblems; p["shard_mc"].Truncated == 0 {
		t.Fatalf("no truncated requests to count: %+v", p)
	}
	if g := unsharded.LMEval.Generation["shard_gen"]; g == nil || g.Counted == 0 {
		t.Fatalf("no generation counts: %+v", unsharded.LMEval.Generation)
	}
	want := comparable(t, unsharded)
	var paths []string
	for i := range 3 {
		paths = append(paths, e.runShard(i, 3, filepath.Join(dir, "shards")))
	}
	res, err := e.merge(paths, filepath.Join(dir, "merged"))
	if err != nil {
		t.Fatal(err)
	}
	if got := comparable(t, res); got != want {
		t.Errorf("the merged results differ from the unsharded run's:\n%s", firstDiff(want, got))
	}
	sameFiles(t, filepath.Join(dir, "unsharded"), filepath.Join(dir, "merged"))

	rec, calls := shard.Record(lm)
	if _, ok := model.As[model.TokenCounter](rec); !ok {
		t.Error("the recorder hides the model's TokenCounter")
	}
	if _, ok := model.As[model.ChatTemplater](rec); ok {
		t.Error("the recorder adds a ChatTemplater the model does not have")
	}
	if _, ok := rec.(model.Generator); !ok {
		t.Error("the recorder hides the model's Generator from model.Generate")
	}
	if !slices.Contains(calls.Has, shard.CapTokenCounter) || slices.Contains(calls.Has, shard.CapFileHasher) {
		t.Errorf("recorded capabilities %v", calls.Has)
	}
	plain, _ := shard.Record(d)
	if _, ok := model.As[model.TokenCounter](plain); ok {
		t.Error("the recorder of the dummy model counts tokens")
	}
}

// TestAnswersExact: answers go through a shard file bit for bit,
// infinities and NaN included.
func TestAnswersExact(t *testing.T) {
	reqs := harness.Requests{
		Loglikelihood: []model.LoglikelihoodRequest{{Context: "a", Continuation: "b"}, {Context: "a", Continuation: "c"}, {Context: "x", Continuation: "y"}},
		Rolling:       []model.RollingRequest{{Text: "t"}},
		Generate:      []model.GenerateRequest{{Context: "g", Until: []string{"\n"}}},
	}
	lls := []float64{-1.0000000000000002, math.Inf(-1), math.SmallestNonzeroFloat64}
	ctx := context.Background()
	w := shard.NewWriter(reqs)
	for i, v := range lls {
		w.Loglikelihood(ctx, i, model.LoglikelihoodResult{LogProb: v, IsGreedy: i == 0, NumTokens: i + 1})
	}
	w.Rolling(ctx, 0, model.RollingResult{LogProb: math.NaN(), NumTokens: 9})
	w.Generated(ctx, 0, "é\n\"x\"")
	path := filepath.Join(t.TempDir(), shard.Name(0, 1))
	if err := w.Write(path, &shard.Header{Count: 1, Run: strings.Repeat("0", 64), Requests: 5, Calls: &shard.Calls{}}); err != nil {
		t.Fatal(err)
	}
	set, err := shard.Open([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	lm, _, err := set.Model()
	if err != nil {
		t.Fatal(err)
	}
	got, err := lm.Loglikelihood(ctx, reqs.Loglikelihood)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range lls {
		if math.Float64bits(got[i].LogProb) != math.Float64bits(v) || got[i].IsGreedy != (i == 0) || got[i].NumTokens != i+1 {
			t.Errorf("answer %d: %+v, want %v", i, got[i], v)
		}
	}
	roll, _ := lm.LoglikelihoodRolling(ctx, reqs.Rolling)
	gen, _ := lm.GenerateUntil(ctx, reqs.Generate)
	if !math.IsNaN(roll[0].LogProb) || roll[0].NumTokens != 9 || gen[0] != "é\n\"x\"" {
		t.Errorf("rolling %+v, generated %q", roll[0], gen[0])
	}
	// A request no shard answered is an error naming its position.
	_, err = lm.Loglikelihood(ctx, []model.LoglikelihoodRequest{{Context: "z"}})
	var re *model.RequestError
	if !errors.As(err, &re) || re.Index != 0 {
		t.Errorf("unanswered request: %v", err)
	}
	// The header is one JSON line.
	data, _ := os.ReadFile(path)
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var h map[string]any
	if err := json.Unmarshal(first, &h); err != nil || h["format"] != shard.Format {
		t.Errorf("header %s: %v", first, err)
	}
}
