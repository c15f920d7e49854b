package codeexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sandboxed: programs run confined on Linux.
const sandboxed = true

// Whether this system lets lmeval create the sandbox's namespaces is
// found out by the first program: 0 unknown, 1 yes, 2 no (nsError says
// why).
var (
	nsState atomic.Int32
	nsError atomic.Value // string
)

// runSandboxed runs program under the helper in dir: in new namespaces
// where the system allows them, else confined by Landlock and seccomp
// alone; require refuses (ErrUnconfined) what cannot be confined.
func (r *Runner) runSandboxed(ctx context.Context, py, dir, program string, require bool) (Result, error) {
	off, err := r.disabled()
	if err != nil {
		return Result{}, err
	}
	in, err := probeInterpreter(ctx, py)
	if err != nil {
		return Result{}, err
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		return Result{}, fmt.Errorf("scratch directory: %w", err)
	}
	root := os.Geteuid() == 0
	if root {
		// The program runs as nobody: its directory is nobody's, and the
		// way to it open.
		if err := errors.Join(os.Chmod(dir, 0o755), os.Chown(work, nobody, nobody)); err != nil {
			return Result{}, fmt.Errorf("scratch directory: %w", err)
		}
	}
	spec := sandboxSpec{
		Exe:      in.Exe,
		Args:     append([]string{in.Exe}, r.preludeArgs()...),
		Env:      programEnv(work),
		Work:     work,
		Read:     readPaths(in),
		DropTo:   -1,
		Landlock: off&noLandlock == 0,
		Seccomp:  off&noSeccomp == 0,
		Network:  r.AllowNetwork,
		Procs:    maxProcs,
		FileSize: maxFileSize,
		Require:  require,
	}
	for _, d := range devices {
		if _, err := os.Stat(d); err == nil {
			spec.Devices = append(spec.Devices, d)
		}
	}
	switch {
	case off&noNamespaces != 0:
		spec.NamespaceError = "turned off"
	case nsState.Load() == 2:
		spec.NamespaceError, _ = nsError.Load().(string)
	default:
		ns := spec
		ns.Namespaces = true
		ns.SwitchIDs = root
		if off&noMountView == 0 {
			ns.View = filepath.Join(dir, "view")
			if err := os.Mkdir(ns.View, 0o755); err != nil {
				return Result{}, fmt.Errorf("scratch directory: %w", err)
			}
		}
		res, err := r.runHelper(ctx, ns, program)
		var nse *namespaceError
		if !errors.As(err, &nse) {
			nsState.CompareAndSwap(0, 1)
			return res, err
		}
		why := fmt.Sprintf("%v (unprivileged user namespaces are off: see sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, kernel.apparmor_restrict_unprivileged_userns)", nse.err)
		nsError.Store(why)
		nsState.Store(2)
		spec.NamespaceError = why
	}
	if root {
		spec.DropTo = nobody
	}
	return r.runHelper(ctx, spec, program)
}

// namespaceError: the system refused to create the namespaces.
type namespaceError struct{ err error }

func (e *namespaceError) Error() string { return "creating namespaces: " + e.err.Error() }

// runHelper starts lmeval as the sandbox helper with spec, reads its
// report, and then the program's verdict.
func (r *Runner) runHelper(ctx context.Context, spec sandboxSpec, program string) (Result, error) {
	arg, err := json.Marshal(spec)
	if err != nil {
		return Result{}, err
	}
	cmd := &exec.Cmd{Path: "/proc/self/exe", Args: []string{helperArg0, string(arg)}, Env: spec.Env, Dir: spec.Work}
	cmd.SysProcAttr = helperProcAttr(spec)
	sr, sw, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	defer sr.Close()
	var st sandboxStatus
	verdict, err := r.execute(ctx, cmd, program, []*os.File{sw}, func() error {
		sw.Close()
		b, _ := io.ReadAll(io.LimitReader(sr, 1<<16))
		st, err = parseStatus(b)
		return err
	})
	if err != nil {
		sw.Close()
		if spec.Namespaces && isNamespaceError(err) {
			return Result{}, &namespaceError{err}
		}
		return Result{}, err
	}
	noteSandbox(st, logSandbox)
	return Result{Passed: verdict == Passed, Verdict: verdict, Isolated: st.NetworkCut, Sandbox: st.Applied}, nil
}

// parseStatus reads the helper's report: the last line decides.
func parseStatus(b []byte) (sandboxStatus, error) {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var st sandboxStatus
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &st); err != nil {
		return st, fmt.Errorf("code execution sandbox: the helper ended without a report (%q)", b)
	}
	if st.Error != "" {
		if st.Refused {
			return st, fmt.Errorf("%w: %s; give --confirm_run_unconfined_code to run them anyway, as the user lmeval runs as", ErrUnconfined, st.Error)
		}
		return st, fmt.Errorf("code execution sandbox: %s", st.Error)
	}
	return st, nil
}

// helperProcAttr starts the helper in its own process group and, with
// spec.Namespaces, in new namespaces whose root it is: uid and gid 0
// there are the user's (nobody's, when lmeval runs as root), and it keeps
// the capabilities it needs to build the mount view and change ids.
func helperProcAttr(spec sandboxSpec) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if !spec.Namespaces {
		return a
	}
	a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	if !spec.Network {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	if spec.SwitchIDs {
		uid, gid = nobody, nobody
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
	// Only a privileged parent may let the child drop its supplementary
	// groups (root's); an unprivileged one must deny setgroups.
	a.GidMappingsEnableSetgroups = spec.SwitchIDs
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETUID, unix.CAP_SETGID, unix.CAP_SETPCAP}
	return a
}

// isNamespaceError reports whether starting failed because namespaces are
// not allowed (a container without user namespaces, a sysctl turning them
// off).
func isNamespaceError(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EUSERS)
}

// killGroup kills the program and everything it started.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}

func init() {
	if len(os.Args) == 2 && os.Args[0] == helperArg0 {
		helperMain(os.Args[1])
	}
}

// helperMain is the sandbox helper: it confines itself as spec says,
// reports on fd 4, and executes the interpreter. It never returns.
func helperMain(arg string) {
	// Credentials, Landlock and seccomp apply to the calling thread; the
	// interpreter is executed from it.
	runtime.LockOSThread()
	// Descriptors lmeval's process opened without close-on-exec (C
	// libraries do) must not reach the program: only stdin, stdout,
	// stderr and the verdict pipe (fd 3) do.
	closeInheritedFiles(5)
	status := os.NewFile(4, "sandbox status")
	report := func(st sandboxStatus) {
		b, _ := json.Marshal(st)
		status.Write(append(b, '\n'))
	}
	var spec sandboxSpec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		report(sandboxStatus{Error: "bad sandbox spec: " + err.Error()})
		os.Exit(125)
	}
	st, err := confine(&spec)
	if err != nil {
		st.Error = err.Error()
		var re *refusal
		st.Refused = errors.As(err, &re)
		report(st)
		os.Exit(125)
	}
	unix.CloseOnExec(4)
	report(st)
	err = unix.Exec(spec.Exe, spec.Args, spec.Env)
	report(sandboxStatus{Error: fmt.Sprintf("executing %s: %v", spec.Exe, err)})
	os.Exit(127)
}

// refusal: the confinement spec.Require asks for is not available.
type refusal struct{ missing []string }

func (r *refusal) Error() string { return strings.Join(r.missing, "; ") }

// confine applies every mechanism spec asks for, in the order they need:
// the mount view while the helper has its capabilities, limits, then the
// capabilities and ids dropped, no_new_privs, Landlock, seccomp last.
func confine(s *sandboxSpec) (sandboxStatus, error) {
	var st sandboxStatus
	have := func(m string) { st.Applied = append(st.Applied, m) }
	lack := func(m string) { st.Missing = append(st.Missing, m) }
	files := false
	if s.Namespaces {
		have("user, PID, IPC and UTS namespaces")
		if !s.Network {
			have("network namespace (no interface up)")
			st.NetworkCut = true
		}
		if s.View == "" {
			lack("mount namespace view: turned off")
		} else {
			if err := mountView(s); err != nil {
				lack("mount namespace view: " + err.Error())
			} else {
				have("mount namespace: only the interpreter, the system libraries (read-only) and the scratch directory")
				files = true
			}
		}
	} else {
		lack("namespaces: " + s.NamespaceError)
	}

	procs := s.Procs
	if !s.Namespaces {
		// Without a user namespace of its own, RLIMIT_NPROC counts all
		// of the user's processes.
		uid := os.Getuid()
		if s.DropTo >= 0 {
			uid = s.DropTo
		}
		procs += countProcesses(uid)
	}
	for _, l := range []struct {
		res int
		v   uint64
	}{{unix.RLIMIT_NPROC, uint64(procs)}, {unix.RLIMIT_FSIZE, uint64(s.FileSize)}, {unix.RLIMIT_CORE, 0}} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.v, Max: l.v}); err != nil {
			return st, fmt.Errorf("setrlimit: %w", err)
		}
	}
	have(fmt.Sprintf("limits: %d processes, %d MiB per file, no core dumps", s.Procs, s.FileSize>>20))

	if err := dropPrivileges(s); err != nil {
		return st, err
	}
	// As the program's user, in the view if there is one.
	if err := unix.Chdir(s.Work); err != nil {
		return st, fmt.Errorf("entering the scratch directory %s: %w", s.Work, err)
	}
	switch {
	case s.SwitchIDs || s.DropTo >= 0:
		have("uid and gid 65534 (nobody), no supplementary groups, no capabilities, no_new_privs")
	default:
		have("no capabilities, no_new_privs")
	}

	if !s.Landlock {
		lack("Landlock: turned off")
	} else if desc, err := landlock(s); err != nil {
		lack("Landlock: " + err.Error())
	} else {
		have(desc)
		files = true
	}

	if !s.Seccomp {
		lack("seccomp: turned off")
	} else {
		banNet := !st.NetworkCut && !s.Network
		if err := installSeccomp(banNet); err != nil {
			lack("seccomp: " + err.Error())
		} else {
			desc := "seccomp: namespaces, mounts, ptrace, BPF, keyrings, io_uring, perf and sockets other than IP refused"
			if banNet {
				desc = "seccomp: namespaces, mounts, ptrace, BPF, keyrings, io_uring, perf and all sockets refused"
				st.NetworkCut = true
			}
			have(desc)
		}
	}

	if s.Require {
		var missing []string
		if !files {
			missing = append(missing, "nothing confines the program's files (neither Landlock nor a mount namespace is available)")
		}
		if !st.NetworkCut && !s.Network {
			missing = append(missing, "nothing cuts the network (neither a network namespace nor seccomp is available)")
		}
		if len(missing) > 0 {
			return st, &refusal{append(missing, st.Missing...)}
		}
	}
	if err := unix.Access(s.Exe, unix.X_OK); err != nil {
		if s.SwitchIDs || s.DropTo >= 0 {
			return st, fmt.Errorf("the interpreter %s cannot be run by uid %d (nobody), as which programs run when lmeval runs as root (%w): use an interpreter every user can read (such as /usr/bin/python3, through LMEVAL_PYTHON), or a system that allows user namespaces", s.Exe, nobody, err)
		}
		return st, fmt.Errorf("the interpreter %s: %w", s.Exe, err)
	}
	return st, nil
}

// countProcesses counts the processes whose /proc directory uid owns.
func countProcesses(uid int) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		var st unix.Stat_t
		if unix.Stat("/proc/"+e.Name(), &st) == nil && int(st.Uid) == uid {
			n++
		}
	}
	return n
}

// Securebits (linux/securebits.h): root gets no capabilities from exec,
// none can be raised into the ambient set, locked so.
const (
	secbitNoRoot                = 1 << 0
	secbitNoRootLocked          = 1 << 1
	secbitKeepCapsLocked        = 1 << 5
	secbitNoCapAmbientRaise     = 1 << 6
	secbitNoCapAmbientRaiseLock = 1 << 7
)

// dropPrivileges leaves the helper with no capabilities (and none to
// gain from exec), root's ids changed to nobody's, and no_new_privs. The
// system calls are made on this thread only (Go's all-threads setuid does
// not work with cgo); the interpreter is executed from it.
func dropPrivileges(s *sandboxSpec) error {
	if s.Namespaces || s.DropTo >= 0 {
		for c := 0; c <= unix.CAP_LAST_CAP; c++ {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
				return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
			}
		}
		bits := secbitNoRoot | secbitNoRootLocked | secbitKeepCapsLocked | secbitNoCapAmbientRaise | secbitNoCapAmbientRaiseLock
		if err := unix.Prctl(unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0); err != nil {
			return fmt.Errorf("securebits: %w", err)
		}
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
			return fmt.Errorf("clearing ambient capabilities: %w", err)
		}
	}
	id := -1
	switch {
	case s.SwitchIDs:
		id = 0 // the namespace's root, mapped to nobody
	case s.DropTo >= 0:
		id = s.DropTo
	}
	if id >= 0 {
		if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
			return fmt.Errorf("setgroups: %w", e)
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, uintptr(id), uintptr(id), uintptr(id)); e != 0 {
			return fmt.Errorf("setresgid(%d): %w", id, e)
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, uintptr(id), uintptr(id), uintptr(id)); e != 0 {
			return fmt.Errorf("setresuid(%d): %w", id, e)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if _, _, e := unix.RawSyscall(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return fmt.Errorf("capset: %w", e)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return nil
}

// mountView makes the mount namespace's root an otherwise empty
// directory (spec.View) holding, at their own paths, read-only binds of
// spec.Read (the symbolic links on their way recreated), the devices,
// and the scratch directory read-write; the host's tree is detached.
func mountView(s *sandboxSpec) error {
	root := s.View
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	if err := unix.Mount(root, root, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s: %w", root, err)
	}
	var bound []string
	bind := func(p string, ro, dev bool) error {
		real, err := materialize(root, p, 0)
		if err != nil {
			return err
		}
		for _, b := range bound {
			if within(real, b) {
				return nil
			}
		}
		fi, err := os.Stat(real)
		if err != nil {
			return err
		}
		target := filepath.Join(root, real)
		if fi.IsDir() {
			err = os.MkdirAll(target, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
			var f *os.File
			if f, err = os.OpenFile(target, os.O_CREATE|os.O_RDONLY, 0o644); err == nil {
				f.Close()
			}
		}
		if err != nil {
			return fmt.Errorf("mount point for %s: %w", real, err)
		}
		if err := unix.Mount(real, target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s: %w", real, err)
		}
		flags := uintptr(unix.MS_NOSUID)
		if ro {
			flags |= unix.MS_RDONLY
		}
		if !dev {
			flags |= unix.MS_NODEV
		}
		if err := remount(target, flags); err != nil {
			return err
		}
		if fi.IsDir() {
			bound = append(bound, real)
		}
		return nil
	}
	read := slices.Clone(s.Read)
	slices.SortFunc(read, func(a, b string) int { return len(a) - len(b) })
	for _, p := range read {
		if err := bind(p, true, false); err != nil {
			return err
		}
	}
	for _, d := range s.Devices {
		if err := bind(d, false, true); err != nil {
			return err
		}
	}
	if err := bind(s.Work, false, false); err != nil {
		return err
	}
	if err := remount(root, unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV); err != nil {
		return err
	}
	if err := unix.Chdir(root); err != nil {
		return err
	}
	// pivot_root(".", "."): the old root ends up mounted over the new
	// one, and is detached right away.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the host's tree: %w", err)
	}
	return unix.Chdir("/")
}

// remount changes a bind mount's flags, keeping those a user namespace
// may not clear (noexec and the atime ones of the original mount).
func remount(target string, flags uintptr) error {
	var sf unix.Statfs_t
	if err := unix.Statfs(target, &sf); err != nil {
		return fmt.Errorf("statfs %s: %w", target, err)
	}
	f := uint64(sf.Flags)
	keep := []struct{ st, ms uint64 }{
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
		{unix.ST_RDONLY, unix.MS_RDONLY},
	}
	for _, k := range keep {
		if f&k.st != 0 {
			flags |= uintptr(k.ms)
		}
	}
	if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|flags, ""); err != nil {
		return fmt.Errorf("remount %s: %w", target, err)
	}
	return nil
}

// materialize returns p with every symbolic link resolved, creating in
// root each link met on the way, so that p resolves in the view as it
// does on the host.
func materialize(root, p string, depth int) (string, error) {
	if depth > 40 {
		return "", fmt.Errorf("%s: %w", p, unix.ELOOP)
	}
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for i, part := range parts {
		if part == "" {
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		link, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(root, next)
		if _, err := os.Lstat(dst); err != nil {
			// Inside a directory bound already, the link is there.
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return "", err
			}
			if err := os.Symlink(link, dst); err != nil {
				return "", err
			}
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(cur, link)
		}
		return materialize(root, filepath.Join(append([]string{link}, parts[i+1:]...)...), depth+1)
	}
	return cur, nil
}

// plainProcAttr: the unconfined child's own process group, killed with
// lmeval.
func plainProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// closeInheritedFiles marks every descriptor from first on close-on-exec
// (the helper's own Go runtime keeps using its until exec).
func closeInheritedFiles(first int) {
	if unix.CloseRange(uint(first), ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Kernels before 5.11: each open descriptor, as /proc lists them.
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= first {
			unix.CloseOnExec(fd)
		}
	}
}
