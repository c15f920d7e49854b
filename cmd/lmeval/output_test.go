package main

import (
	"context"
	"errors"
	"github.com/lmeval/lmeval/backend/dummy"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// hookLM is the dummy model that calls a test's function before every
// batch of requests: the "test-hook" backend, its hook named by the
// model_arg hook (hooks are registered by setHook).
type hookLM struct {
	*dummy.LM
	hook func(ctx context.Context) error
}

var hooks = struct {
	sync.Mutex
	fns   map[string]func(ctx context.Context) error
	loads map[string]int
}{fns: map[string]func(context.Context) error{}, loads: map[string]int{}}

func init() {
	model.Register("test-hook", func(_ context.Context, args model.Args) (model.LM, error) {
		d, err := dummy.New(args)
		if err != nil {
			return nil, err
		}
		hooks.Lock()
		defer hooks.Unlock()
		name := args["hook"]
		hooks.loads[name]++
		fn := hooks.fns[name]
		if fn == nil {
			fn = func(context.Context) error { return nil }
		}
		return &hookLM{LM: d, hook: fn}, nil
	})
}

// setHook registers fn under a name unique to the test and returns the
// model_args that select it, and a function reporting how many times the
// model was made.
func setHook(t *testing.T, fn func(ctx context.Context) error) (modelArgs string, loads func() int) {
	t.Helper()
	name := t.Name()
	hooks.Lock()
	hooks.fns[name], hooks.loads[name] = fn, 0
	hooks.Unlock()
	t.Cleanup(func() {
		hooks.Lock()
		delete(hooks.fns, name)
		delete(hooks.loads, name)
		hooks.Unlock()
	})
	return "hook=" + name, func() int {
		hooks.Lock()
		defer hooks.Unlock()
		return hooks.loads[name]
	}
}

func (h *hookLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	if err := h.hook(ctx); err != nil {
		return nil, err
	}
	return h.LM.Loglikelihood(ctx, reqs)
}

func (h *hookLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	if err := h.hook(ctx); err != nil {
		return nil, err
	}
	return h.LM.LoglikelihoodRolling(ctx, reqs)
}

func (h *hookLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	if err := h.hook(ctx); err != nil {
		return nil, err
	}
	return h.LM.GenerateUntil(ctx, reqs)
}

// runAppContext runs a command line in-process under ctx and returns its
// stdout and stderr.
func runAppContext(ctx context.Context, t *testing.T, line ...string) (stdout, stderr string, err error) {
	t.Helper()
	app := newApp()
	var out, errOut strings.Builder
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.RunContext(ctx, prepareArgs(append([]string{"lmeval"}, line...)))
	return out.String(), errOut.String(), err
}

// TestRunOutputPathCheckedFirst: an --output_path that cannot be written
// is reported, naming it, before the model is loaded, with or without
// --log_samples.
func TestRunOutputPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(file, "out"), filepath.Join(file, "out", "r.json"), file}
	if fi, err := os.Stat("/proc/self"); err == nil && fi.IsDir() {
		paths = append(paths, "/proc/lmeval-test-x")
	}
	t.Chdir(harnessDir)
	for _, p := range paths {
		for _, samples := range []bool{false, true} {
			args, loads := setHook(t, nil)
			line := []string{"run", "--model", "test-hook", "--model_args", args, "--tasks", "toy_mc",
				"--include_path", "testdata/tasks", "--output_path", p, "--no_progress"}
			if samples {
				line = append(line, "--log_samples")
			}
			stdout, _, err := runAppContext(context.Background(), t, line...)
			if err == nil {
				t.Errorf("--output_path %s (log_samples %v): no error; stdout:\n%s", p, samples, stdout)
				continue
			}
			if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "--output_path") {
				t.Errorf("--output_path %s (log_samples %v): error %q does not name the flag and the path", p, samples, err)
			}
			if n := loads(); n != 0 {
				t.Errorf("--output_path %s (log_samples %v): the model was loaded (%d) before the path was checked; error %q", p, samples, n, err)
			}
		}
	}
}

// TestRunResultsKeptWhenWriteFails: when the output location becomes
// unwritable during the run, the table is still printed, the results are
// saved to a fallback file the error names, and the error names the path
// the user gave.
func TestRunResultsKeptWhenWriteFails(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out := filepath.Join(dir, "out")
	var once sync.Once
	args, _ := setHook(t, func(context.Context) error {
		// Where the results go is now a regular file.
		once.Do(func() { os.WriteFile(out, []byte("x"), 0o644) })
		return nil
	})
	t.Chdir(harnessDir)
	stdout, _, err := runAppContext(context.Background(), t, "run", "--model", "test-hook", "--model_args", args,
		"--tasks", "toy_mc", "--include_path", "testdata/tasks", "--output_path", out, "--no_progress")
	if err == nil {
		t.Fatal("no error though the results could not be written")
	}
	if !strings.Contains(stdout, "toy_mc") || !strings.Contains(stdout, "acc") {
		t.Errorf("the results table was not printed:\n%s", stdout)
	}
	if !strings.Contains(err.Error(), out) {
		t.Errorf("error %q does not name --output_path %s", err, out)
	}
	fallback, _ := filepath.Glob(filepath.Join(tmp, "*results*.json"))
	if len(fallback) != 1 {
		t.Fatalf("fallback files in $TMPDIR: %v (error %q)", fallback, err)
	}
	if !strings.Contains(err.Error(), fallback[0]) {
		t.Errorf("error %q does not name the fallback file %s", err, fallback[0])
	}
	data, rerr := os.ReadFile(fallback[0])
	if rerr != nil {
		t.Fatal(rerr)
	}
	res, perr := results.Parse(data)
	if perr != nil {
		t.Fatalf("fallback file: %v", perr)
	}
	if _, ok := res.Results.Get("toy_mc"); !ok {
		t.Errorf("fallback results lack toy_mc: %v", res.Results.Keys())
	}
	if strings.Contains(err.Error(), ".results-") {
		t.Errorf("error %q names a temporary file", err)
	}
}

// TestInterruptedRunMarksPartialSamples: the samples files of a run that
// did not finish cannot be mistaken for complete ones: they are not named
// samples_*.jsonl, and the interruption message says where they are. A
// rerun's complete files are.
func TestInterruptedRunMarksPartialSamples(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	args, _ := setHook(t, func(c context.Context) error {
		// The generations are interrupted (Ctrl-C); the multiple-choice
		// task's documents were all answered and written.
		cancel()
		return c.Err()
	})
	t.Chdir(harnessDir)
	_, _, err := runAppContext(ctx, t, "run", "--model", "test-hook", "--model_args", args,
		"--tasks", "toy_mc,toy_gen", "--include_path", "testdata/tasks", "--output_path", out, "--log_samples", "--no_progress")
	var exit interface{ ExitCode() int }
	if err == nil || !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("interrupted run: error %v, want exit code 130", err)
	}
	complete, _ := filepath.Glob(filepath.Join(out, "samples_*.jsonl"))
	if len(complete) != 0 {
		t.Errorf("the interrupted run left files named as complete samples: %v", complete)
	}
	partial, _ := filepath.Glob(filepath.Join(out, "samples_*.partial"))
	if len(partial) == 0 {
		t.Fatalf("no partial samples kept in %s", out)
	}
	for _, p := range partial {
		if !strings.Contains(err.Error(), filepath.Base(p)) && !strings.Contains(err.Error(), out) {
			t.Errorf("interruption message %q does not say where the partial samples are (%s)", err, p)
		}
	}

	// The rerun completes: its files are the complete ones.
	args2, _ := setHook(t, nil)
	if _, _, err := runAppContext(context.Background(), t, "run", "--model", "test-hook", "--model_args", args2,
		"--tasks", "toy_mc,toy_gen", "--include_path", "testdata/tasks", "--output_path", out, "--log_samples", "--no_progress"); err != nil {
		t.Fatal(err)
	}
	complete, _ = filepath.Glob(filepath.Join(out, "samples_*.jsonl"))
	if len(complete) != 2 {
		t.Errorf("complete samples files after the rerun: %v", complete)
	}
}
