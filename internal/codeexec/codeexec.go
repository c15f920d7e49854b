// Package codeexec runs model-written Python programs the way Hugging Face
// evaluate's code_eval metric does (humaneval, mbpp and the other pass@k
// tasks), each in a child python3 process with a time limit, a memory
// limit, no network where the system allows a new network namespace, and
// a scratch working directory removed afterwards.
//
// Running a model's code is unsafe: nothing here runs unless the caller
// has been told to (lm-eval's --confirm_run_unsafe_code), see Confirm.
package codeexec

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

//go:embed prelude.py
var prelude string

// Defaults, as code_eval's (timeout 3 s, 4 workers); code_eval sets no
// memory limit, lmeval sets one so a program allocating without bound
// fails instead of taking the machine down.
const (
	DefaultTimeout = 3 * time.Second
	DefaultMemory  = 2 << 30
	DefaultWorkers = 4
)

// Verdicts, as code_eval's result strings; a failure is "failed: " and
// the exception's text.
const (
	Passed   = "passed"
	TimedOut = "timed out"
)

var (
	// ErrNotConfirmed: code execution was not confirmed by the user.
	ErrNotConfirmed = errors.New("running model-generated code needs --confirm_run_unsafe_code")
	// ErrNoPython: no python3 interpreter was found.
	ErrNoPython = errors.New("no python3 found: install Python 3 or set LMEVAL_PYTHON to an interpreter")
)

var confirmed atomic.Bool

// Confirm records the user's consent to run model-generated code
// (--confirm_run_unsafe_code). Without it Run refuses with ErrNotConfirmed.
func Confirm(ok bool) { confirmed.Store(ok) }

// Confirmed reports whether Confirm(true) was called.
func Confirmed() bool { return confirmed.Load() }

// Runner runs programs. The zero value uses the defaults.
type Runner struct {
	// Python is the interpreter; "" means $LMEVAL_PYTHON, else python3 on
	// the PATH.
	Python string
	// Timeout is the wall-clock limit of one program (DefaultTimeout if 0).
	Timeout time.Duration
	// Memory is the address-space limit in bytes (DefaultMemory if 0;
	// negative: none).
	Memory int64
	// Workers is how many programs run at once (DefaultWorkers if 0).
	Workers int
	// AllowNetwork skips the network namespace.
	AllowNetwork bool
}

// Result is the verdict on one program.
type Result struct {
	Passed bool
	// Verdict is code_eval's result string: "passed", "timed out" or
	// "failed: ...".
	Verdict string
	// Isolated says whether the program ran in its own network namespace.
	Isolated bool
}

func (r *Runner) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

func (r *Runner) memory() int64 {
	switch {
	case r.Memory < 0:
		return 0
	case r.Memory == 0:
		return DefaultMemory
	}
	return r.Memory
}

// Python returns the interpreter programs run with ($LMEVAL_PYTHON, else
// python3 on the PATH), or ErrNoPython, so a run can fail before the
// model generates anything.
func Python() (string, error) { return (&Runner{}).python() }

// python finds the interpreter.
func (r *Runner) python() (string, error) {
	p := r.Python
	if p == "" {
		p = os.Getenv("LMEVAL_PYTHON")
	}
	if p == "" {
		p = "python3"
	}
	path, err := exec.LookPath(p)
	if err != nil {
		return "", fmt.Errorf("%w (looked for %q: %v)", ErrNoPython, p, err)
	}
	return path, nil
}

var warnOnce sync.Once

// Run executes one program and returns its verdict. The error is for
// failures to run it at all (not confirmed, no python3, no scratch
// directory); a program that fails, loops or crashes gives a Result.
func (r *Runner) Run(ctx context.Context, program string) (Result, error) {
	if !Confirmed() {
		return Result{}, ErrNotConfirmed
	}
	py, err := r.python()
	if err != nil {
		return Result{}, err
	}
	dir, err := os.MkdirTemp("", "lmeval-exec-")
	if err != nil {
		return Result{}, fmt.Errorf("scratch directory: %w", err)
	}
	defer removeAll(dir)
	isolate := !r.AllowNetwork
	if isolate && !canIsolate {
		warnOnce.Do(func() {
			slog.Warn("code execution: network namespaces need Linux; programs run WITH network access")
		})
		isolate = false
	}
	res, err := r.runIn(ctx, py, dir, program, isolate)
	if err != nil && isolate && errors.Is(err, errNamespace) {
		warnOnce.Do(func() {
			slog.Warn("code execution: this system does not allow a new network namespace; programs run WITH network access", "error", err)
		})
		res, err = r.runIn(ctx, py, dir, program, false)
	}
	return res, err
}

var errNamespace = errors.New("cannot create a network namespace")

func (r *Runner) runIn(ctx context.Context, py, dir, program string, isolate bool) (Result, error) {
	limit := r.timeout()
	// code_eval waits timeout+1 s for the process before killing it.
	ctx, cancel := context.WithTimeout(ctx, limit+time.Second)
	defer cancel()
	cmd := exec.Command(py, "-I", "-c", prelude,
		strconv.FormatFloat(limit.Seconds(), 'f', -1, 64), strconv.FormatInt(r.memory(), 10))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"}
	cmd.Stdin = strings.NewReader(program)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	defer pr.Close()
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = sysProcAttr(isolate)
	if err := cmd.Start(); err != nil {
		pw.Close()
		if isolate && isNamespaceError(err) {
			return Result{}, fmt.Errorf("%w: %w", errNamespace, err)
		}
		return Result{}, fmt.Errorf("starting %s: %w", py, err)
	}
	pw.Close()
	var verdict bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&verdict, io.LimitReader(pr, 1<<16))
		close(read)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		killGroup(cmd.Process)
		<-done
	}
	pr.Close()
	<-read
	v := verdict.String()
	if v == "" {
		// The process died or was killed before writing a verdict:
		// code_eval reports an empty result as "timed out".
		v = TimedOut
	}
	return Result{Passed: v == Passed, Verdict: v, Isolated: isolate}, nil
}

// RunAll runs programs with r.Workers at a time; results are in order.
func (r *Runner) RunAll(ctx context.Context, programs []string) ([]Result, error) {
	out := make([]Result, len(programs))
	errs := make([]error, len(programs))
	n := r.Workers
	if n <= 0 {
		n = min(DefaultWorkers, runtime.NumCPU())
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i, p := range programs {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = r.Run(ctx, p)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// removeAll deletes the scratch directory, first making everything in it
// writable again (a program may have removed permissions).
func removeAll(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		slog.Warn("code execution: scratch directory not removed", "dir", dir, "error", err)
	}
}
