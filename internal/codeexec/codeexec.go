// Package codeexec runs model-written Python programs the way Hugging Face
// evaluate's code_eval metric does (humaneval, mbpp and the other pass@k
// tasks), each in a child python3 process with a time limit and a memory
// limit, confined (sandbox.go): it reads only the interpreter and the
// system libraries, writes only a scratch directory removed afterwards,
// cannot reach the network, see other processes or gain privileges.
//
// Running a model's code is unsafe: nothing here runs unless the caller
// has been told to (lm-eval's --confirm_run_unsafe_code) and says so with
// the context it runs programs with (WithConsent); where the system cannot
// confine programs, nothing runs unless the user accepted that too
// (Consent.Unconfined).
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

// Consent is what the user accepted about running model-generated code:
// running it at all (--confirm_run_unsafe_code, which a context carrying a
// Consent stands for) and, with Unconfined, running it where the system
// cannot confine it (--confirm_run_unconfined_code).
type Consent struct {
	Unconfined bool
}

type consentKey struct{}

// WithConsent returns a copy of ctx carrying the user's consent c: Run
// refuses with ErrNotConfirmed unless its context carries one. The consent
// belongs to one evaluation, which passes it down to the metric functions
// that run programs; another evaluation in the same process has its own.
func WithConsent(ctx context.Context, c Consent) context.Context {
	return context.WithValue(ctx, consentKey{}, c)
}

// ConsentOf is the consent ctx carries; ok is false when it carries none.
func ConsentOf(ctx context.Context) (c Consent, ok bool) {
	c, ok = ctx.Value(consentKey{}).(Consent)
	return c, ok
}

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
	// AllowNetwork leaves the network reachable (no network namespace,
	// IP sockets allowed).
	AllowNetwork bool

	// disable turns sandbox mechanisms off, for tests of each alone.
	disable mechanisms
}

// mechanisms are sandbox mechanisms, for Runner.disable.
type mechanisms uint

const (
	noNamespaces mechanisms = 1 << iota
	noMountView
	noLandlock
	noSeccomp
)

// Result is the verdict on one program.
type Result struct {
	Passed bool
	// Verdict is code_eval's result string: "passed", "timed out" or
	// "failed: ...".
	Verdict string
	// Isolated says whether the program could not reach the network.
	Isolated bool
	// Sandbox lists the confinement the program ran under.
	Sandbox []string
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

// Run executes one program and returns its verdict. The error is for
// failures to run it at all (not confirmed, no python3, no scratch
// directory, a system that cannot confine it: ErrUnconfined); a program
// that fails, loops or crashes gives a Result.
func (r *Runner) Run(ctx context.Context, program string) (Result, error) {
	consent, ok := ConsentOf(ctx)
	if !ok {
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
	if !sandboxed {
		if !consent.Unconfined {
			return Result{}, fmt.Errorf("%w: lmeval confines programs on Linux only (Landlock, namespaces, seccomp); give --confirm_run_unconfined_code to run them anyway, as the user lmeval runs as", ErrUnconfined)
		}
		noteSandbox(sandboxStatus{Missing: []string{"everything: lmeval confines programs on Linux only"}}, logSandbox)
		return r.runPlain(ctx, py, dir, program)
	}
	return r.runSandboxed(ctx, py, dir, program, !consent.Unconfined)
}

// EnvDisable names sandbox mechanisms to turn off, comma-separated
// (namespaces, mountview, landlock, seccomp): to see how a system lacking
// them fares. A run still refuses unless what remains confines programs,
// or the consent says Unconfined.
const EnvDisable = "LMEVAL_SANDBOX_DISABLE"

// disabled are the mechanisms r and $LMEVAL_SANDBOX_DISABLE turn off.
func (r *Runner) disabled() (mechanisms, error) {
	d := r.disable
	for _, name := range strings.FieldsFunc(os.Getenv(EnvDisable), func(c rune) bool { return c == ',' || c == ' ' }) {
		switch strings.ToLower(name) {
		case "namespaces":
			d |= noNamespaces
		case "mountview":
			d |= noMountView
		case "landlock":
			d |= noLandlock
		case "seccomp":
			d |= noSeccomp
		default:
			return 0, fmt.Errorf("%s: unknown mechanism %q (want namespaces, mountview, landlock, seccomp)", EnvDisable, name)
		}
	}
	return d, nil
}

// Check runs an empty program as every program runs, so that a run
// learns before its model loads whether programs can run here: it
// returns ErrUnconfined (naming what is missing) where the system cannot
// confine them and ctx's consent does not say Unconfined.
func Check(ctx context.Context) error {
	res, err := (&Runner{Timeout: 30 * time.Second}).Run(ctx, "pass")
	if err != nil {
		return err
	}
	if !res.Passed {
		return fmt.Errorf("code execution: an empty program does not pass: %s", res.Verdict)
	}
	return nil
}

// preludeArgs are the interpreter's arguments: isolated mode, the
// prelude, the time and memory limits.
func (r *Runner) preludeArgs() []string {
	return []string{"-I", "-c", prelude,
		strconv.FormatFloat(r.timeout().Seconds(), 'f', -1, 64), strconv.FormatInt(r.memory(), 10)}
}

// runPlain runs the interpreter directly, with nothing but the prelude's
// limits (where the system offers no confinement and the user accepted
// that).
func (r *Runner) runPlain(ctx context.Context, py, dir, program string) (Result, error) {
	cmd := exec.Command(py, r.preludeArgs()...)
	cmd.Dir = dir
	cmd.Env = programEnv(dir)
	cmd.SysProcAttr = plainProcAttr()
	verdict, err := r.execute(ctx, cmd, program, nil, nil)
	if err != nil {
		return Result{}, fmt.Errorf("starting %s: %w", py, err)
	}
	return Result{Passed: verdict == Passed, Verdict: verdict}, nil
}

// execute starts cmd with the program on stdin and the verdict pipe as
// fd 3 (extra after it), calls started (when not nil; an error kills the
// process), and returns the verdict once the process ends or is killed
// at the time limit plus a second.
func (r *Runner) execute(ctx context.Context, cmd *exec.Cmd, program string, extra []*os.File, started func() error) (string, error) {
	// code_eval waits timeout+1 s for the process before killing it.
	ctx, cancel := context.WithTimeout(ctx, r.timeout()+time.Second)
	defer cancel()
	cmd.Stdin = strings.NewReader(program)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	pr, pw, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer pr.Close()
	cmd.ExtraFiles = append([]*os.File{pw}, extra...)
	if err := cmd.Start(); err != nil {
		pw.Close()
		return "", err
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
	if started != nil {
		if err := started(); err != nil {
			killGroup(cmd.Process)
			<-done
			return "", err
		}
	}
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
	return v, nil
}

// logSandbox logs the sandbox note.
func logSandbox(warn bool, msg string, args ...any) {
	if warn {
		slog.Warn(msg, args...)
		return
	}
	slog.Info(msg, args...)
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
