package codeexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The sandbox (docs/code-execution.md). Each program runs in a child
// process that lmeval starts as itself (the sandbox helper, see
// helperArg0), which confines itself and then executes the interpreter:
//
//   - filesystem: a read-only view of the interpreter and the system
//     libraries plus the program's scratch directory, by Landlock and,
//     where user namespaces are allowed, by a mount namespace whose root
//     holds only those (each suffices alone);
//   - network: a network namespace with no interface up, or else a
//     seccomp filter refusing sockets;
//   - processes: a PID namespace (the program is its init: when it ends,
//     everything it started is killed), RLIMIT_NPROC, Landlock's signal
//     scope;
//   - privileges: no capabilities, no_new_privs, a seccomp filter
//     refusing the system calls a program has no use for (namespaces,
//     mounts, ptrace, BPF, keyrings, io_uring, ...); run by root, the
//     program runs as nobody (uid 65534).
//
// Where neither Landlock nor a mount namespace can confine the files, or
// nothing can cut the network, Run refuses (ErrUnconfined) unless its
// context's Consent says Unconfined (--confirm_run_unconfined_code).

// ErrUnconfined: the system offers no means to confine programs, and the
// user did not accept running them unconfined.
var ErrUnconfined = errors.New("this system cannot confine the model's programs")

// helperArg0 is the argv[0] under which lmeval runs as the sandbox
// helper: its init (sandbox_linux.go) confines the process and executes
// the interpreter instead of starting lmeval.
const helperArg0 = "lmeval-codeexec-sandbox"

// Confinement limits beyond time and memory.
const (
	// maxProcs is RLIMIT_NPROC: the processes (and threads) a program
	// may have at once.
	maxProcs = 256
	// maxFileSize is RLIMIT_FSIZE: the largest file a program may write.
	maxFileSize = 256 << 20
)

// nobody is the uid and gid programs run as when lmeval runs as root.
const nobody = 65534

// interpreter is a Python installation as the sandbox needs it.
type interpreter struct {
	// Exe is sys.executable: what the sandbox executes (a virtual
	// environment's python keeps its environment).
	Exe string `json:"exe"`
	// Paths are what it reads: its prefixes and sys.path entries, with
	// symbolic links resolved, none inside another.
	Paths []string `json:"paths"`
}

const probeScript = `import json, sys
print(json.dumps({"exe": sys.executable, "paths": [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, sys.executable] + sys.path}))`

var interpreters sync.Map // python path -> *interpreterOnce

type interpreterOnce struct {
	once sync.Once
	in   *interpreter
	err  error
}

// probeInterpreter asks py (trusted: the user's interpreter, before any
// model code runs) where it lives, once per interpreter.
func probeInterpreter(ctx context.Context, py string) (*interpreter, error) {
	v, _ := interpreters.LoadOrStore(py, &interpreterOnce{})
	o := v.(*interpreterOnce)
	o.once.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, py, "-I", "-c", probeScript).Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
			}
			o.err = fmt.Errorf("asking %s where it lives: %w", py, err)
			return
		}
		var raw interpreter
		if err := json.Unmarshal(out, &raw); err != nil {
			o.err = fmt.Errorf("asking %s where it lives: %w (%q)", py, err, out)
			return
		}
		in := &interpreter{Exe: raw.Exe}
		if in.Exe == "" {
			o.err = fmt.Errorf("%s does not know its own executable (sys.executable is empty)", py)
			return
		}
		for i, p := range raw.Paths {
			if i == 4 { // sys.executable: its directory
				p = filepath.Dir(p)
			}
			if p == "" || !filepath.IsAbs(p) {
				continue
			}
			in.Paths = append(in.Paths, p)
		}
		in.Paths = topmost(in.Paths)
		o.in = in
	})
	return o.in, o.err
}

// topmost resolves paths (dropping those that do not exist), sorts them
// and drops those inside another.
func topmost(paths []string) []string {
	var out []string
	for _, p := range paths {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		out = append(out, r)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	var top []string
	for _, p := range out {
		if len(top) > 0 && within(p, top[len(top)-1]) {
			continue
		}
		top = append(top, p)
	}
	return top
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// systemPaths are the directories a dynamically linked interpreter needs
// beside its own (the loader, libc, libffi, ...), where they exist.
var systemPaths = []string{"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin"}

// systemFiles are the files of /etc an interpreter reads (the loader's
// cache, the time zone, the user and group names).
var systemFiles = []string{"/etc/ld.so.cache", "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf"}

// devices are readable and writable in the sandbox.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// programEnv is the interpreter's whole environment: the scratch
// directory is its home and temporary directory.
func programEnv(work string) []string {
	return []string{"PATH=/usr/bin:/bin", "HOME=" + work, "TMPDIR=" + work, "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"}
}

// sandboxSpec is what the helper is told to do, as JSON in its argv[1].
type sandboxSpec struct {
	// Exe, Args and Env are the interpreter's execve arguments.
	Exe  string   `json:"exe"`
	Args []string `json:"args"`
	Env  []string `json:"env"`
	// Work is the program's scratch directory (read-write).
	Work string `json:"work"`
	// View is an empty directory to build the mount namespace's root in
	// ("" for no mount view).
	View string `json:"view,omitempty"`
	// Read are the directories and files the program may read and
	// execute; Devices those it may read and write.
	Read    []string `json:"read"`
	Devices []string `json:"devices"`
	// Namespaces: the helper starts in new user, mount, PID, IPC, UTS
	// and (unless Network) network namespaces, as their root.
	Namespaces bool `json:"namespaces"`
	// NamespaceError says why there are no namespaces (for the report).
	NamespaceError string `json:"namespace_error,omitempty"`
	// Network leaves the network reachable (Runner.AllowNetwork).
	Network bool `json:"network,omitempty"`
	// SwitchIDs: become uid and gid 0 of the user namespace (mapped to
	// nobody) with no supplementary groups; lmeval runs as root.
	SwitchIDs bool `json:"switch_ids,omitempty"`
	// DropTo: without namespaces, the uid and gid root becomes (-1: none).
	DropTo int `json:"drop_to"`
	// Landlock and Seccomp enable those mechanisms.
	Landlock bool `json:"landlock"`
	Seccomp  bool `json:"seccomp"`
	// Procs and FileSize are RLIMIT_NPROC and RLIMIT_FSIZE.
	Procs    int   `json:"procs"`
	FileSize int64 `json:"file_size"`
	// Require refuses to run the program unless its files, the network
	// and (for root) its privileges are confined.
	Require bool `json:"require"`
}

// sandboxStatus is the helper's report, written to fd 4 before it
// executes the interpreter (or instead, on failure).
type sandboxStatus struct {
	// Applied are the mechanisms in force; Missing those that are not,
	// each with its reason.
	Applied []string `json:"applied"`
	Missing []string `json:"missing,omitempty"`
	// NetworkCut says the program cannot reach the network.
	NetworkCut bool `json:"network_cut"`
	// Error is why the program was not run.
	Error string `json:"error,omitempty"`
	// Refused says the error is a refusal for lack of confinement.
	Refused bool `json:"refused,omitempty"`
}

// readPaths are the paths the program may read for interpreter in.
func readPaths(in *interpreter) []string {
	var out []string
	for _, p := range append(append([]string{}, systemPaths...), in.Paths...) {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	for _, f := range systemFiles {
		if _, err := os.Stat(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// sandboxNote describes the sandbox in force once (Info), or what is
// missing (Warn) when programs run less confined.
var sandboxNote sync.Once

func noteSandbox(st sandboxStatus, logf func(warn bool, msg string, args ...any)) {
	sandboxNote.Do(func() {
		if len(st.Missing) > 0 {
			logf(true, "code execution: programs run less confined than they should (--confirm_run_unconfined_code)", "in_force", strings.Join(st.Applied, "; "), "missing", strings.Join(st.Missing, "; "))
			return
		}
		logf(false, "code execution: each program runs confined", "sandbox", strings.Join(st.Applied, "; "))
	})
}
