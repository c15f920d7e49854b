package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
)

// The recipes of docs/scale.md, run as the schedulers would run them:
// the Slurm array script and the Kubernetes Indexed Job's container, as
// concurrent local processes with the variables the scheduler sets, then
// the merge, compared with one unsharded run of the same settings.

// recipe is the code block that follows "<!-- recipe: NAME -->" in
// docs/scale.md.
func recipe(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "scale.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- recipe: "+name+" -->\n")
	if !ok {
		t.Fatalf("docs/scale.md has no recipe %s", name)
	}
	_, rest, _ = strings.Cut(rest, "\n") // the fence and its language
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("docs/scale.md: recipe %s has no end", name)
	}
	return block + "\n"
}

// scaleSettings are the test run's settings, as the recipes' eval.yaml
// holds a real run's: the shard test tasks (harness/testdata/shard) on
// stories260K, each answer computed alone (batch_size=1, no prefix
// sharing) so that it is the same bits in every shard and the merged
// results must equal the unsharded ones exactly (the default batching
// moves log-probabilities by float noise with the batch's other requests,
// as between unsharded runs of other batch sizes); the dummy model when
// the shared models are absent.
func scaleSettings(t *testing.T, outputPath string) map[string]any {
	t.Helper()
	args := map[string]any{"seed": "1"}
	backend := "dummy"
	if p, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "models", "stories260K.gguf")); err == nil {
		if _, err := os.Stat(p); err == nil {
			backend = "llama"
			// One thread: the shards run at once, and llama.cpp's
			// threads spin while they wait for one another.
			args = map[string]any{"pretrained": p, "batch_size": "1", "prefix_sharing": "false", "threads": "1"}
		}
	}
	t.Logf("model: %s %v", backend, args)
	return map[string]any{
		"model": backend, "model_args": args,
		"tasks":        []any{"shard_group", "shard_gen", "shard_gen_sampled", "shard_ppl"},
		"include_path": []any{"testdata/shard/tasks"},
		"limit":        12, "log_samples": true, "bootstrap_iters": 500,
		"output_path": outputPath,
	}
}

func writeYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// proc is one process of an emulated job.
type proc struct {
	args []string
	env  []string
}

// runProcs runs the processes at once, as a scheduler's tasks run, in the
// harness directory (the test tasks' data files are relative to it), with
// the built binary first on the PATH as lmeval.
func runProcs(t *testing.T, bin string, procs []proc) []string {
	t.Helper()
	dir, err := filepath.Abs(harnessDir)
	if err != nil {
		t.Fatal(err)
	}
	binDir := filepath.Join(t.TempDir(), "bin")
	os.MkdirAll(binDir, 0o755)
	if err := os.Symlink(bin, filepath.Join(binDir, "lmeval")); err != nil {
		t.Fatal(err)
	}
	outs := make([]string, len(procs))
	errs := make([]error, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := p.args[0]
			if name == "lmeval" {
				name = bin // a container's command, found on its PATH
			}
			cmd := exec.Command(name, p.args[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "HF_HUB_OFFLINE=1",
				"LMEVAL_CACHE_DIR="+filepath.Join(binDir, "cache"))
			cmd.Env = append(cmd.Env, p.env...)
			out, err := cmd.CombinedOutput()
			outs[i] = string(out)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %v\n%s", strings.Join(p.args, " "), err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return outs
}

// findShards lists the shard files under dir, in name order.
func findShards(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "shard-") && strings.HasSuffix(d.Name(), ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// lmevalCmd runs the binary once, returning its combined output and
// error.
func lmevalCmd(t *testing.T, bin string, args ...string) (string, error) {
	t.Helper()
	dir, _ := filepath.Abs(harnessDir)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1", "LMEVAL_CACHE_DIR="+filepath.Join(t.TempDir(), "cache"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// runOutputs are the results file and the samples files (by task) under
// dir.
func runOutputs(t *testing.T, dir string) (map[string]any, map[string][]byte) {
	t.Helper()
	var resFile string
	samples := map[string][]byte{}
	date := regexp.MustCompile(`^samples_(.+)_\d{4}-\d\d-\d\dT[\d.-]+\.jsonl$`)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), "results_") {
			if resFile != "" {
				t.Fatalf("two results files under %s: %s, %s", dir, resFile, p)
			}
			resFile = p
		}
		if m := date.FindStringSubmatch(d.Name()); m != nil {
			samples[m[1]], _ = os.ReadFile(p)
		}
		return nil
	})
	if resFile == "" {
		t.Fatalf("no results file under %s", dir)
	}
	data, err := os.ReadFile(resFile)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	return res, samples
}

// sameRun checks that a merged run's outputs are the unsharded run's:
// every results key but the date, the duration and lmeval's block (whose
// data problems and truncations must agree, and with computed, the
// prompt tokens: the shards computed every answer, none came from a
// cache), the config but use_cache, and the samples files byte for byte.
func sameRun(t *testing.T, refDir, gotDir string, computed bool) {
	t.Helper()
	ref, refSamples := runOutputs(t, refDir)
	got, gotSamples := runOutputs(t, gotDir)
	for k, v := range ref {
		switch k {
		case "date", "total_evaluation_time_seconds":
			continue
		case "config":
			a, b := v.(map[string]any), got[k].(map[string]any)
			delete(a, "use_cache")
			delete(b, "use_cache")
		case "lmeval":
			a, b := v.(map[string]any), got[k].(map[string]any)
			fields := []string{"data_problems", "model", "version"}
			if computed {
				fields = append(fields, "prompt_tokens", "truncated")
			}
			for _, f := range fields {
				if !reflect.DeepEqual(a[f], b[f]) {
					t.Errorf("lmeval.%s: %v, unsharded %v", f, b[f], a[f])
				}
			}
			continue
		}
		if !reflect.DeepEqual(v, got[k]) {
			ja, _ := json.Marshal(v)
			jb, _ := json.Marshal(got[k])
			t.Errorf("results %q differ:\n%s\nunsharded:\n%s", k, jb, ja)
		}
	}
	if len(refSamples) < 5 {
		t.Fatalf("samples files %v", slices.Collect(mapKeysOf(refSamples)))
	}
	for task, want := range refSamples {
		if !bytes.Equal(gotSamples[task], want) {
			t.Errorf("samples of %s differ from the unsharded run's", task)
		}
	}
}

func mapKeysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// unsharded runs the settings at cfgPath in one piece, with its results
// under out.
func unsharded(t *testing.T, bin, cfgPath, out string) {
	t.Helper()
	if o, err := lmevalCmd(t, bin, "run", "--config", cfgPath, "--output_path", out, "--no_progress"); err != nil {
		t.Fatalf("unsharded run: %v\n%s", err, o)
	}
}

// TestScaleSlurm runs docs/scale.md's Slurm array script as `sbatch
// --array=0-3` would, merges, and compares with one unsharded run; then
// loses a task's shard, which the merge names, and reruns it alone as the
// doc says; then merges the shards' caches, from which an unsharded run
// computes nothing.
func TestScaleSlurm(t *testing.T) {
	bin := buildBinary(t)
	script := recipe(t, "lmeval-array.sh")
	for _, want := range []string{"#SBATCH --array=0-7", "--shard auto", `--config "$CONFIG"`, "$SLURM_ARRAY_TASK_ID.sqlite"} {
		if !strings.Contains(script, want) {
			t.Fatalf("the Slurm script lacks %q:\n%s", want, script)
		}
	}
	checkRecipeConfig(t, recipe(t, "eval.yaml"))
	dir := t.TempDir()
	scriptPath := filepath.Join(dir, "lmeval-array.sh")
	os.WriteFile(scriptPath, []byte(script), 0o755)
	out := filepath.Join(dir, "evals")
	cfgPath := filepath.Join(dir, "eval.yaml")
	writeYAML(t, cfgPath, scaleSettings(t, out))
	cacheDir := filepath.Join(dir, "cache")

	// sbatch --array=LO-HI: one process per task, with Slurm's variables.
	array := func(lo, hi int, env ...string) {
		var procs []proc
		for id := lo; id <= hi; id++ {
			procs = append(procs, proc{args: []string{"bash", scriptPath}, env: append([]string{
				"SLURM_ARRAY_JOB_ID=4242", fmt.Sprintf("SLURM_JOB_ID=%d", 4243+id),
				fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", id), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", hi-lo+1),
				fmt.Sprintf("SLURM_ARRAY_TASK_MIN=%d", lo), fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", hi),
				"SLURM_ARRAY_TASK_STEP=1", "CONFIG=" + cfgPath, "CACHE=" + cacheDir,
			}, env...)})
		}
		runProcs(t, bin, procs)
	}
	array(0, 3)
	shards := findShards(t, out)
	if len(shards) != 4 {
		t.Fatalf("shard files %v", shards)
	}
	// The merge job: sbatch --dependency=afterok:... --wrap "lmeval merge OUT".
	if o, err := lmevalCmd(t, bin, "merge", out); err != nil || !strings.Contains(o, "shard_group") {
		t.Fatalf("merge: %v\n%s", err, o)
	}
	unsharded(t, bin, cfgPath, filepath.Join(dir, "ref"))
	sameRun(t, filepath.Join(dir, "ref"), out, true)

	// Task 2 failed: the merge names its shard and the command that makes
	// it; rerun alone (sbatch --array=2 --export=ALL,LMEVAL_SHARD_COUNT=4).
	lost := shards[2]
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	o, err := lmevalCmd(t, bin, "merge", out, "--output_path", filepath.Join(dir, "partial"))
	if err == nil || !strings.Contains(o, "shard 2 of 4 missing") || !strings.Contains(o, "--shard=2/4") {
		t.Fatalf("merge without shard 2: %v\n%s", err, o)
	}
	array(2, 2, "LMEVAL_SHARD_COUNT=4")
	if _, err := os.Stat(lost); err != nil {
		t.Fatalf("the rerun did not write shard 2 again: %v", err)
	}
	rerun := filepath.Join(dir, "rerun")
	if o, err := lmevalCmd(t, bin, "merge", out, "--output_path", rerun); err != nil {
		t.Fatalf("merge after the rerun: %v\n%s", err, o)
	}
	sameRun(t, filepath.Join(dir, "ref"), rerun, false)

	// The shards' caches merged: an unsharded run computes nothing.
	caches, _ := filepath.Glob(filepath.Join(cacheDir, "shard-*.sqlite"))
	all := filepath.Join(dir, "all.sqlite")
	if o, err := lmevalCmd(t, bin, append([]string{"cache", "merge", all}, caches...)...); err != nil || !strings.Contains(o, "responses added") {
		t.Fatalf("cache merge %v: %v\n%s", caches, err, o)
	}
	o, err = lmevalCmd(t, bin, "run", "--config", cfgPath, "--output_path", filepath.Join(dir, "cached"), "--use_cache", all, "--no_progress")
	if err != nil {
		t.Fatalf("run on the merged cache: %v\n%s", err, o)
	}
	if !regexp.MustCompile(`msg="response cache" .*hits=\d+ computed=0`).MatchString(o) {
		t.Errorf("the run on the merged cache computed answers:\n%s", o)
	}
	sameRun(t, filepath.Join(dir, "ref"), filepath.Join(dir, "cached"), false)
}

// checkRecipeConfig checks that a recipe's eval.yaml is a valid config
// file of a run.
func checkRecipeConfig(t *testing.T, text string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eval.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	l, err := config.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Resolve(l)
	if err != nil {
		t.Fatalf("the recipe's eval.yaml: %v", err)
	}
	if err := cfg.Validate(); err != nil || cfg.OutputPath == "" {
		t.Fatalf("the recipe's eval.yaml: %v (output_path %q)", err, cfg.OutputPath)
	}
}

// k8sContainer is what the test reads of a Job's pod template.
type k8sContainer struct {
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"env"`
	Resources struct {
		Limits map[string]any `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type k8sDoc struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				Containers []k8sContainer `yaml:"containers"`
				Volumes    []struct {
					Name      string         `yaml:"name"`
					ConfigMap map[string]any `yaml:"configMap"`
					PVC       map[string]any `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func k8sDocs(t *testing.T, text string) []k8sDoc {
	t.Helper()
	var docs []k8sDoc
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var d k8sDoc
		if err := dec.Decode(&d); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// podProcess is the process Kubernetes starts for a container: its
// command and args with $(VAR) expanded from its env (and extra, which
// Kubernetes adds: JOB_COMPLETION_INDEX), paths under the volumes' mount
// paths moved to local directories.
func podProcess(c k8sContainer, mounts map[string]string, extra map[string]string) proc {
	vars := map[string]string{}
	var env []string
	mapPath := func(s string) string {
		for from, to := range mounts {
			if s == from || strings.HasPrefix(s, from+"/") {
				return to + strings.TrimPrefix(s, from)
			}
		}
		return s
	}
	for k, v := range extra {
		vars[k] = v
		env = append(env, k+"="+v)
	}
	for _, e := range c.Env {
		v := mapPath(e.Value)
		vars[e.Name] = v
		env = append(env, e.Name+"="+v)
	}
	expand := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)
	var args []string
	for _, a := range append(slices.Clone(c.Command), c.Args...) {
		a = expand.ReplaceAllStringFunc(a, func(m string) string {
			if v, ok := vars[m[2:len(m)-1]]; ok {
				return v
			}
			return m // Kubernetes leaves unknown references as they are
		})
		args = append(args, mapPath(a))
	}
	return proc{args: args, env: env}
}

// TestScaleKubernetes runs docs/scale.md's Indexed Job as Kubernetes
// would: for each completion index a process of the Job's container (its
// command, args and env, $(JOB_COMPLETION_INDEX) expanded, the volumes at
// local directories, the ConfigMap's settings replaced by the test's),
// then the merge Job's container, and compares with one unsharded run.
func TestScaleKubernetes(t *testing.T) {
	bin := buildBinary(t)
	docs := k8sDocs(t, recipe(t, "lmeval-shards.yaml"))
	if len(docs) != 2 || docs[0].Kind != "ConfigMap" || docs[1].Kind != "Job" {
		t.Fatalf("lmeval-shards.yaml: want a ConfigMap and a Job, got %+v", docs)
	}
	cm, job := docs[0], docs[1]
	checkRecipeConfig(t, cm.Data["eval.yaml"])
	spec := job.Spec
	if spec.CompletionMode != "Indexed" || spec.Completions < 2 || len(spec.Template.Spec.Containers) != 1 {
		t.Fatalf("the Job is not an Indexed Job of one container: %+v", spec)
	}
	c := spec.Template.Spec.Containers[0]
	count := ""
	for _, e := range c.Env {
		if e.Name == "LMEVAL_SHARD_COUNT" {
			count = e.Value
		}
	}
	if count != strconv.Itoa(spec.Completions) {
		t.Errorf("LMEVAL_SHARD_COUNT is %q, the Job's completions %d", count, spec.Completions)
	}
	if fmt.Sprint(c.Resources.Limits["nvidia.com/gpu"]) != "1" {
		t.Errorf("the shards' pods ask for %v GPUs, want 1", c.Resources.Limits["nvidia.com/gpu"])
	}
	dir := t.TempDir()
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = filepath.Join(dir, "volumes", m.Name)
		os.MkdirAll(mounts[m.MountPath], 0o755)
	}
	if mounts["/data"] == "" || mounts["/config"] == "" {
		t.Fatalf("volume mounts %v", c.VolumeMounts)
	}
	// The ConfigMap, mounted at /config, with the test's settings
	// writing under the mounted /data.
	var conf map[string]any
	yaml.Unmarshal([]byte(cm.Data["eval.yaml"]), &conf)
	out := conf["output_path"].(string)
	local := scaleSettings(t, mounts["/data"]+strings.TrimPrefix(out, "/data"))
	cfgPath := filepath.Join(mounts["/config"], "eval.yaml")
	writeYAML(t, cfgPath, local)

	var procs []proc
	for i := range spec.Completions {
		procs = append(procs, podProcess(c, mounts, map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i)}))
	}
	runProcs(t, bin, procs)
	shards := findShards(t, local["output_path"].(string))
	if len(shards) != spec.Completions {
		t.Fatalf("shard files %v", shards)
	}
	caches, _ := filepath.Glob(filepath.Join(mounts["/data"], "cache", "shard-*.sqlite"))
	if len(caches) != spec.Completions {
		t.Errorf("caches %v: $(JOB_COMPLETION_INDEX) not expanded?", caches)
	}

	mdocs := k8sDocs(t, recipe(t, "lmeval-merge.yaml"))
	if len(mdocs) != 1 || mdocs[0].Kind != "Job" || len(mdocs[0].Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("lmeval-merge.yaml: want a Job of one container, got %+v", mdocs)
	}
	mc := mdocs[0].Spec.Template.Spec.Containers[0]
	if _, ok := mc.Resources.Limits["nvidia.com/gpu"]; ok {
		t.Error("the merge asks for a GPU; it needs none")
	}
	mp := podProcess(mc, mounts, nil)
	if !slices.Contains(mp.args, "merge") || !slices.Contains(mp.args, local["output_path"].(string)) {
		t.Fatalf("the merge Job does not merge the shards' output path: %v", mp.args)
	}
	runProcs(t, bin, []proc{mp})
	unsharded(t, bin, cfgPath, filepath.Join(dir, "ref"))
	sameRun(t, filepath.Join(dir, "ref"), local["output_path"].(string), true)
}

// TestScaleSkyPilot: docs/scale.md's SkyPilot task is a SkyPilot task
// (resources with a GPU, setup, run) whose lmeval commands take only
// flags lmeval has.
func TestScaleSkyPilot(t *testing.T) {
	var task struct {
		Resources struct {
			Accelerators map[string]int `yaml:"accelerators"`
		} `yaml:"resources"`
		Workdir    string         `yaml:"workdir"`
		FileMounts map[string]any `yaml:"file_mounts"`
		Setup      string         `yaml:"setup"`
		Run        string         `yaml:"run"`
	}
	if err := yaml.Unmarshal([]byte(recipe(t, "lmeval-sky.yaml")), &task); err != nil {
		t.Fatal(err)
	}
	if len(task.Resources.Accelerators) == 0 || !strings.Contains(task.Setup, "make cuda") || task.Run == "" || task.FileMounts["/results"] == nil {
		t.Fatalf("not a SkyPilot task that builds lmeval and keeps its results: %+v", task)
	}
	line := strings.Join(strings.Fields(strings.ReplaceAll(task.Run, "\\\n", " ")), " ")
	fields := strings.Fields(line)
	if len(fields) < 2 || fields[0] != "./lmeval" || fields[1] != "run" {
		t.Fatalf("run is not an lmeval run: %q", line)
	}
	flags := map[string]bool{}
	for _, f := range runFlags() {
		for _, n := range f.Names() {
			flags[n] = true
		}
	}
	for _, f := range fields[2:] {
		if name, ok := strings.CutPrefix(f, "--"); ok && !flags[strings.SplitN(name, "=", 2)[0]] {
			t.Errorf("lmeval run has no flag %s", f)
		}
	}
}

// BenchmarkShardUnit measures what keeping a document's requests together
// saves: the log-likelihood requests of the shard test tasks (multiple
// choice: four choices, and as many unconditional requests, per
// question) on stories260K, unsharded, in 4 shards split as lmeval
// splits them (documents whole), and in 4 shards taking every 4th
// request (a document's choices on different machines). Each shard is a
// fresh model, as on its own machine; the metric is the tokens the
// engines decoded in all, prefix sharing included.
func BenchmarkShardUnit(b *testing.B) {
	path := storiesPath(b)
	b.Chdir(harnessDir)
	cfg, err := config.Resolve(config.Layer{Source: "bench", Flags: true, Values: map[string]any{
		"model": "llama", "tasks": []string{"shard_group"}, "include_path": []string{"testdata/shard/tasks"},
	}})
	if err != nil {
		b.Fatal(err)
	}
	reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: cfg.IncludePaths, Metadata: cfg.Metadata, NoTree: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	build := func(opts ...harness.Option) *harness.Workload {
		p, err := harness.NewPlan(cfg, harness.WithRegistry(reg))
		if err != nil {
			b.Fatal(err)
		}
		bl, err := p.Build(ctx, nil, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return bl
	}
	reqs := build().Requests().Loglikelihood
	// decoded runs each part on a fresh model and sums the tokens its
	// engine decoded.
	decoded := func(parts [][]model.LoglikelihoodRequest) int64 {
		var n int64
		for _, part := range parts {
			lm, err := model.New(ctx, "llama", model.Args{"pretrained": path, "threads": "1"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := lm.Loglikelihood(ctx, part); err != nil {
				b.Fatal(err)
			}
			n += lm.(model.Describer).Describe().Work.TokensDecoded
			lm.(model.Closer).Close()
		}
		return n
	}
	dlm, _ := dummy.New(nil)
	byDoc := make([][]model.LoglikelihoodRequest, 4)
	byReq := make([][]model.LoglikelihoodRequest, 4)
	for i := range 4 {
		pos := &positions{}
		if err := build(harness.WithShard(i, 4)).Run(ctx, dlm, pos); err != nil {
			b.Fatal(err)
		}
		for _, p := range pos.ll {
			byDoc[i] = append(byDoc[i], reqs[p])
		}
	}
	for p, r := range reqs {
		byReq[p%4] = append(byReq[p%4], r)
	}
	for range b.N {
		whole := decoded([][]model.LoglikelihoodRequest{reqs})
		b.ReportMetric(float64(whole), "tokens-unsharded")
		b.ReportMetric(float64(decoded(byDoc))/float64(whole), "x-documents-whole")
		b.ReportMetric(float64(decoded(byReq))/float64(whole), "x-requests-spread")
	}
}

// positions records the positions of a shard's log-likelihood answers.
type positions struct{ ll []int }

func (p *positions) Loglikelihood(_ context.Context, i int, _ model.LoglikelihoodResult) error {
	p.ll = append(p.ll, i)
	return nil
}
func (p *positions) Rolling(context.Context, int, model.RollingResult) error { return nil }
func (p *positions) Generated(context.Context, int, string) error            { return nil }
