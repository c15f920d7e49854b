package main

import (
	"bufio"
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
	"time"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/internal/filehash"
)

// The toy tasks live in harness/testdata; their data_files are relative to
// the harness directory, as lm-eval resolves them against the working
// directory.
const harnessDir = "../../harness"

func storiesPath(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skip("../shared/models/stories260K.gguf not available")
	}
	return p
}

func readLines(t *testing.T, p string) []map[string]any {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, e *results.Entry, key string) float64 {
	t.Helper()
	v, ok := e.Get(key)
	if !ok {
		t.Fatalf("no %s in %v", key, e.Keys())
	}
	switch f := v.(type) {
	case results.Float:
		return float64(f)
	case float64:
		return f
	}
	t.Fatalf("%s = %v (%T)", key, v, v)
	return 0
}

// TestRunDummy runs 'lmeval run' in-process with the dummy model on the toy
// tasks and checks the table, the results file and the samples files.
func TestRunDummy(t *testing.T) {
	out := t.TempDir()
	t.Chdir(harnessDir)
	summary := filepath.Join(out, "summary.json")
	stdout, err := runApp(t, "run", "--model", "dummy", "--tasks", "toy_group,toy_gen", "--include_path", "testdata/tasks",
		"--output_path", out, "--log_samples", "--no_progress", "--bootstrap_iters", "100", "--summary_path", summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dummy ()", "Tasks", "toy_mc", "toy mc b", "exact_match", "Groups", "toy group"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// No pretrained= model_arg: no model directory, as in lm-eval.
	res := readResults(t, out)
	e, ok := res.Results.Get("toy_gen")
	if !ok {
		t.Fatalf("no toy_gen in %v", res.Results.Keys())
	}
	samples, _ := filepath.Glob(filepath.Join(out, "samples_toy_gen_*.jsonl"))
	if len(samples) != 1 {
		t.Fatalf("samples files: %v", samples)
	}
	// The strict filter's exact_match is the mean of its samples' values.
	sum, n := 0.0, 0
	for _, s := range readLines(t, samples[0]) {
		if s["filter"] == "strict" {
			sum += s["exact_match"].(float64)
			n++
		}
	}
	if n != 4 || math.Abs(num(t, e, "exact_match,strict")-sum/float64(n)) > 1e-12 {
		t.Errorf("exact_match,strict = %v over %d samples summing to %v", num(t, e, "exact_match,strict"), n, sum)
	}
	// The flat summary: numbers only, tasks and groups.
	var flat map[string]map[string]float64
	sdata, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sdata, &flat); err != nil {
		t.Fatalf("summary: %v\n%s", err, sdata)
	}
	if flat["toy_gen"]["exact_match,strict"] != num(t, e, "exact_match,strict") || len(flat["toy_group"]) != 4 {
		t.Errorf("summary %v", flat)
	}
}

// storiesResults evaluates toy tasks on stories260K in-process.
func storiesEval(t *testing.T, lm model.LM, tasks ...string) *results.Results {
	t.Helper()
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
		"model": "llama", "tasks": tasks, "bootstrap_iters": "0",
	}})
	if err != nil {
		t.Fatal(err)
	}
	reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: []string{"testdata/tasks"}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := harness.NewPlan(cfg, harness.WithRegistry(reg))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Evaluate(context.Background(), lm)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// recordingLM records the answers an evaluation got, so a test can
// recompute its metrics from the very numbers it scored.
type recordingLM struct {
	model.LM
	mu   sync.Mutex
	ll   map[model.LoglikelihoodRequest]model.LoglikelihoodResult
	roll map[string]model.RollingResult
}

func (r *recordingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	res, err := r.LM.Loglikelihood(ctx, reqs)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range res {
		r.ll[reqs[i]] = res[i]
	}
	return res, err
}

func (r *recordingLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	res, err := r.LM.LoglikelihoodRolling(ctx, reqs)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range res {
		r.roll[reqs[i].Text] = res[i]
	}
	return res, err
}

func (r *recordingLM) Unwrap() model.LM { return r.LM }

func (r *recordingLM) Describe() model.Description { return r.LM.(model.Describer).Describe() }

// TestEvaluateStories260K runs a small multiple-choice task and a small
// rolling-perplexity task on a real model through the llama backend and
// recomputes their metrics by hand from the log-likelihoods the evaluation
// got (so the comparison holds to rounding); those answers in turn must be
// what the model gives each request alone, to the float32 noise of exact
// attention across batch layouts (f32 KV cache: ~1e-5 a request; 1e-4
// allowed).
func TestEvaluateStories260K(t *testing.T) {
	path := storiesPath(t)
	ctx := context.Background()
	inner, err := model.New(ctx, "llama", model.Args{"pretrained": path, "n_ctx": "512", "type_k": "f32", "type_v": "f32"})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.(model.Closer).Close()
	lm := &recordingLM{LM: inner, ll: map[model.LoglikelihoodRequest]model.LoglikelihoodResult{}, roll: map[string]model.RollingResult{}}
	t.Chdir(harnessDir)
	res := storiesEval(t, lm, "toy_mc", "toy_ppl")
	const noise = 1e-4
	answer := func(req model.LoglikelihoodRequest) model.LoglikelihoodResult {
		t.Helper()
		got, ok := lm.ll[req]
		if !ok {
			t.Fatalf("the evaluation did not ask for %+v", req)
		}
		alone, err := inner.Loglikelihood(ctx, []model.LoglikelihoodRequest{req})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.LogProb-alone[0].LogProb) > noise {
			t.Errorf("%+v: %v in the evaluation, %v alone", req, got.LogProb, alone[0].LogProb)
		}
		return got
	}

	// Multiple choice: acc, acc_norm and acc_mutual_info by hand.
	var acc, accNorm, mi []float64
	for _, d := range readLines(t, "testdata/data/mc.jsonl") {
		prompt := fmt.Sprintf("Q: %s\nA:", d["question"])
		best, bestNorm, bestMI := -1, -1, -1
		var top, topNorm, topMI float64
		for i, c := range d["choices"].([]any) {
			cont := " " + c.(string)
			r := answer(model.LoglikelihoodRequest{Context: prompt, Continuation: cont})
			u := answer(model.LoglikelihoodRequest{Context: "", Continuation: cont})
			ll, norm, m := r.LogProb, r.LogProb/float64(len(c.(string))), r.LogProb-u.LogProb
			if best < 0 || ll > top {
				best, top = i, ll
			}
			if bestNorm < 0 || norm > topNorm {
				bestNorm, topNorm = i, norm
			}
			if bestMI < 0 || m > topMI {
				bestMI, topMI = i, m
			}
		}
		gold := int(d["label"].(float64))
		acc = append(acc, b2f(best == gold))
		accNorm = append(accNorm, b2f(bestNorm == gold))
		mi = append(mi, b2f(bestMI == gold))
	}
	e, _ := res.Results.Get("toy_mc")
	for key, vals := range map[string][]float64{"acc,none": acc, "acc_norm,none": accNorm, "acc_mutual_info,none": mi} {
		if got, want := num(t, e, key), avg(vals); math.Abs(got-want) > 1e-12 {
			t.Errorf("toy_mc %s = %v, want %v", key, got, want)
		}
	}

	// Rolling perplexity: each page as the evaluation scored it; alone it
	// scores the same, and (short pages fit one window) as a log-likelihood
	// request: lm-eval's rolling windows tokenize the page with BOS and
	// condition that on the prefix BOS, so they score "<s>"+page after the
	// context "<s>" (an empty context would score the page alone, given one
	// BOS).
	var ll, words, bytes float64
	for _, d := range readLines(t, "testdata/data/ppl.jsonl") {
		text := d["text"].(string)
		got, ok := lm.roll[text]
		if !ok {
			t.Fatalf("the evaluation did not score %q", text)
		}
		r, err := inner.LoglikelihoodRolling(ctx, []model.RollingRequest{{Text: text}})
		if err != nil {
			t.Fatal(err)
		}
		l, err := inner.Loglikelihood(ctx, []model.LoglikelihoodRequest{{Context: "<s>", Continuation: "<s>" + text}})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.LogProb-r[0].LogProb) > noise || math.Abs(r[0].LogProb-l[0].LogProb) > noise {
			t.Errorf("%q: rolling %v in the evaluation, %v alone; loglikelihood %v", text, got.LogProb, r[0].LogProb, l[0].LogProb)
		}
		ll += got.LogProb
		words += float64(len(strings.Fields(text)))
		bytes += float64(len(text))
	}
	p, _ := res.Results.Get("toy_ppl")
	for key, want := range map[string]float64{
		"word_perplexity,none": math.Exp(-ll / words),
		"byte_perplexity,none": math.Exp(-ll / bytes),
		"bits_per_byte,none":   -ll / bytes / math.Ln2,
	} {
		if got := num(t, p, key); math.Abs(got-want) > 1e-9*want {
			t.Errorf("toy_ppl %s = %v, want %v", key, got, want)
		}
	}
	if res.LMEval == nil || res.LMEval.Model["architecture"] != "llama" || res.LMEval.TokensDecoded == 0 {
		t.Errorf("lmeval block: %+v", res.LMEval)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func avg(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// buildBinary builds lmeval once for the tests that run it, with the cgo
// flags 'make test' exports; it skips when they are not exported.
func buildBinary(t testing.TB) string {
	t.Helper()
	// A machine without Go (the device check's GPU machine) runs these
	// tests from a binary built elsewhere, and names it.
	if bin := os.Getenv("LMEVAL_TEST_BINARY"); bin != "" {
		return bin
	}
	if os.Getenv("CGO_LDFLAGS") == "" {
		t.Skip("the native engine's cgo flags are not exported (run 'make test', or eval \"$(make -s env)\")")
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lmeval-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "lmeval")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	// Tests never download lm-eval's task tree: an empty local tree
	// stands in for it.
	empty, err := os.MkdirTemp("", "lmeval-empty-tree-")
	if err != nil {
		panic(err)
	}
	os.Setenv("LMEVAL_TASKS_SOURCE", empty)
	// Keep the registry caches of `ls` and friends out of the user's cache.
	cacheDir := ""
	if os.Getenv("LMEVAL_CACHE_DIR") == "" {
		if cacheDir, err = os.MkdirTemp("", "lmeval-test-cache-"); err != nil {
			panic(err)
		}
		os.Setenv("LMEVAL_CACHE_DIR", cacheDir)
	}
	code := m.Run()
	os.RemoveAll(empty)
	if cacheDir != "" {
		os.RemoveAll(cacheDir)
	}
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// TestRunBinary builds the lmeval binary and runs it on stories260K with a
// local task: the table on stdout, the results file and the samples file.
func TestRunBinary(t *testing.T) {
	path := storiesPath(t)
	bin := buildBinary(t)
	outDir := t.TempDir()
	cmd := exec.Command(bin, "run", "--model", "llama", "--model_args", "pretrained="+path+",n_ctx=512",
		"--tasks", "toy_mc", "--include_path", "testdata/tasks", "--output_path", outDir, "--log_samples")
	cmd.Dir = harnessDir
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("lmeval run: %v\nstderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"|Tasks ", "|toy_mc|", "acc_mutual_info", "acc_norm"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), "level=") {
		t.Errorf("logs on stdout:\n%s", stdout.String())
	}
	files, _ := filepath.Glob(filepath.Join(outDir, "*", "results_*.json"))
	if len(files) != 1 {
		t.Fatalf("results files under %s: %v", outDir, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"results", "group_subtasks", "configs", "versions", "n-shot", "higher_is_better", "n-samples", "config", "date", "total_evaluation_time_seconds", "lmeval"} {
		if _, ok := top[k]; !ok {
			t.Errorf("results file lacks %q", k)
		}
	}
	fp, err := filehash.SHA256(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if got := top["lmeval"].(map[string]any)["model"].(map[string]any)["sha256"]; got != fp {
		t.Errorf("lmeval.model.sha256 = %v, want %s", got, fp)
	}
	if cfg := top["config"].(map[string]any); cfg["model"] != "llama" || !strings.Contains(cfg["model_args"].(string), "pretrained="+path) {
		t.Errorf("config = %v", cfg)
	}
	entry := top["results"].(map[string]any)["toy_mc"].(map[string]any)
	samples, _ := filepath.Glob(filepath.Join(filepath.Dir(files[0]), "samples_toy_mc_*.jsonl"))
	if len(samples) != 1 {
		t.Fatalf("samples files: %v", samples)
	}
	lines := readLines(t, samples[0])
	if len(lines) != 6 {
		t.Fatalf("%d samples, want 6", len(lines))
	}
	sum := 0.0
	for i, s := range lines {
		sum += s["acc"].(float64)
		args := s["arguments"].(map[string]any)
		if len(args) != 2*len(s["doc"].(map[string]any)["choices"].([]any)) {
			t.Errorf("sample %d: %d requests", i, len(args))
		}
		ctx := args["gen_args_0"].(map[string]any)["arg_0"].(string)
		if s["prompt_hash"] != results.HashString(ctx) {
			t.Errorf("sample %d: prompt_hash does not hash the prompt", i)
		}
	}
	if got := entry["acc,none"].(float64); math.Abs(got-sum/6) > 1e-12 {
		t.Errorf("acc %v, samples' mean %v", got, sum/6)
	}
}

// TestRunCacheRequests: --cache_requests stores built requests in the
// default requests cache, and a second run reuses them.
func TestRunCacheRequests(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LMEVAL_CACHE_DIR", dir)
	t.Chdir(harnessDir)
	var outs []string
	for range 2 {
		out, err := runApp(t, "run", "--model", "dummy", "--tasks", "toy_mc", "--include_path", "testdata/tasks",
			"--cache_requests", "true", "--no_progress")
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("tables differ:\n%s\n%s", outs[0], outs[1])
	}
	db, err := cache.Open(filepath.Join(dir, "requests.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	info, err := db.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if info.Blobs != 1 {
		t.Errorf("request sets = %d, want 1", info.Blobs)
	}
}

// bigTask writes a multiple-choice task of n documents into dir.
func bigTask(t *testing.T, dir string, n int) {
	t.Helper()
	var b strings.Builder
	words := []string{"cat", "dog", "sun", "tree", "ball", "girl", "boy", "park", "cake", "bird"}
	for i := range n {
		d := map[string]any{
			"question": fmt.Sprintf("Lily saw a %s and a %s. What did she see first?", words[i%10], words[(i/10)%10]),
			"choices":  []string{words[i%10], words[(i+3)%10], words[(i+7)%10]},
			"label":    0,
		}
		js, _ := json.Marshal(d)
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := `task: big_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: ` + filepath.Join(dir, "big.jsonl") + `
test_split: test
output_type: multiple_choice
doc_to_text: "{{question}}"
doc_to_choice: "{{choices}}"
doc_to_target: label
`
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunInterrupt sends Ctrl-C (SIGINT) to a running 'lmeval run': it
// stops with exit status 130 and a message saying how to resume, the
// samples written so far are whole lines, and the rerun of the same command
// answers the committed requests from the cache and completes.
func TestRunInterrupt(t *testing.T) {
	path := storiesPath(t)
	dir := t.TempDir()
	bigTask(t, dir, 1500)
	bin := buildBinary(t)
	db := filepath.Join(dir, "cache.sqlite")
	out := filepath.Join(dir, "out")
	args := []string{"run", "--model", "llama", "--model_args", "pretrained=" + path + ",n_ctx=256,type_k=f32,type_v=f32",
		"--tasks", "big_mc", "--include_path", dir, "--use_cache", db, "--output_path", out, "--log_samples", "--no_progress"}
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once some chunk of answers is committed.
	committed := 0
	for range 600 {
		if c, err := cache.Open(db); err == nil {
			if info, err := c.Summary(); err == nil {
				committed = info.Responses["loglikelihood"]
			}
			c.Close()
		}
		if committed > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if committed == 0 {
		cmd.Process.Kill()
		t.Fatalf("no answers committed in 30s\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Skipf("the run ended (%v) before the interrupt reached it", err)
	}
	if exit.ExitCode() != 130 || !strings.Contains(stderr.String(), "rerun the same command to resume") {
		t.Fatalf("exit %d, stderr:\n%s", exit.ExitCode(), stderr.String())
	}
	samples, _ := filepath.Glob(filepath.Join(out, "*", "samples_big_mc_*.jsonl"))
	for _, s := range samples {
		readLines(t, s) // every line whole JSON
	}

	// The rerun resumes: the committed answers come from the cache.
	stderr.Reset()
	cmd = exec.Command(bin, args...)
	cmd.Stderr = &stderr
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "|big_mc|") {
		t.Errorf("rerun table:\n%s", stdout.String())
	}
	var hits int
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "response cache") {
			fmt.Sscanf(line[strings.Index(line, "hits=")+len("hits="):], "%d", &hits)
		}
	}
	t.Logf("%d answers committed before the interrupt, %d from the cache on the rerun", committed, hits)
	if hits < committed {
		t.Errorf("rerun answered %d requests from the cache, want at least the %d committed before the interrupt\n%s", hits, committed, stderr.String())
	}
}
