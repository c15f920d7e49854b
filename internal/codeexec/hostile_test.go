package codeexec

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileEnv is what a program written to escape aims at: a "home"
// directory with a token and a key (one world-readable, so that only
// the sandbox protects it, one private), a directory anyone may write,
// this process, and listeners on the host's loopback.
type hostileEnv struct {
	home, public, private, outside string
	pid                            int
	tcpPort, udpPort               int
	abstract                       string
	udp                            *net.UDPConn
}

func newHostileEnv(t *testing.T) *hostileEnv {
	t.Helper()
	base := t.TempDir()
	// The test's temporary directories are 0700; the decoys must be
	// reachable but for the sandbox, so every directory on the way opens
	// to everyone.
	for d := base; d != "/" && d != filepath.Dir(os.TempDir()); d = filepath.Dir(d) {
		if strings.HasPrefix(d, os.TempDir()) && d != os.TempDir() {
			os.Chmod(d, 0o755)
		}
	}
	e := &hostileEnv{home: filepath.Join(base, "home"), outside: filepath.Join(base, "outside"), pid: os.Getpid()}
	for _, d := range []string{e.home, filepath.Join(e.home, ".cache", "huggingface"), e.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(e.outside, 0o777)
	e.public = filepath.Join(e.home, ".cache", "huggingface", "token")
	e.private = filepath.Join(e.home, "id_ed25519")
	if err := os.WriteFile(e.public, []byte("hf_SECRET_TOKEN"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.private, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from the host\n"))
			c.Close()
		}
	}()
	e.tcpPort = ln.Addr().(*net.TCPAddr).Port
	e.udp, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.udp.Close() })
	e.udpPort = e.udp.LocalAddr().(*net.UDPAddr).Port
	e.abstract = fmt.Sprintf("lmeval-hostile-%d", os.Getpid())
	ua, err := net.ListenUnix("unix", &net.UnixAddr{Name: "@" + e.abstract, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ua.Close() })
	return e
}

// expand fills a program's placeholders.
func (e *hostileEnv) expand(p string) string {
	return strings.NewReplacer(
		"{HOME}", e.home, "{PUBLIC}", e.public, "{PRIVATE}", e.private, "{OUTSIDE}", e.outside,
		"{PID}", fmt.Sprint(e.pid), "{TCP}", fmt.Sprint(e.tcpPort), "{UDP}", fmt.Sprint(e.udpPort),
		"{ABSTRACT}", e.abstract,
	).Replace(p)
}

// escaped is the helper every hostile program starts with: it records
// what got through; a program that escaped nowhere passes.
const escapedHelper = `
import ctypes, ctypes.util, os, sys, posix
libc = ctypes.CDLL(None, use_errno=True)
escapes = []
def attempt(what, f):
    try:
        r = f()
    except Exception:
        return
    if r is not False:
        escapes.append(what)
def done():
    if escapes:
        raise AssertionError("ESCAPED: " + "; ".join(escapes))
`

// hostilePrograms are written to escape; each ends with done(), which
// fails naming every attempt that got through.
var hostilePrograms = []struct {
	name, program string
}{
	{"read the user's files", `
attempt("read a world-readable token in the home directory", lambda: open("{PUBLIC}").read())
attempt("read a private key in the home directory", lambda: open("{PRIVATE}").read())
attempt("list the home directory", lambda: os.listdir("{HOME}"))
# The view shows the way to an interpreter under /root, and nothing else.
attempt("list /root", lambda: len([n for n in os.listdir("/root") if not sys.base_prefix.startswith("/root/" + n + "/")]) > 0)
attempt("read /etc/shadow", lambda: open("/etc/shadow").read())
attempt("read the token with openat through ctypes", lambda: libc.openat(-100, b"{PUBLIC}", 0) >= 0)
attempt("read the token with open through ctypes", lambda: libc.open(b"{PUBLIC}", 0) >= 0)
def inherited():
    for fd in range(3, 256):
        try:
            if b"SECRET" in os.pread(fd, 100, 0):
                return True
        except OSError:
            pass
    return False
attempt("read a descriptor the harness left open", inherited)
done()
`},
	{"write outside the scratch directory", `
attempt("create a file in a world-writable directory", lambda: open("{OUTSIDE}/pwned", "w").write("x"))
attempt("create a file in /tmp", lambda: open("/tmp/lmeval-hostile-{PID}", "w").write("x"))
attempt("create a file in the home directory", lambda: open("{HOME}/pwned", "w").write("x"))
attempt("write into the interpreter's library", lambda: open(os.path.join(os.path.dirname(os.__file__), "lmeval_pwned.py"), "w").write("x"))
attempt("create a file with creat through ctypes", lambda: libc.creat(b"{OUTSIDE}/pwned2", 0o644) >= 0)
attempt("make a directory with mkdir through ctypes", lambda: libc.mkdir(b"{OUTSIDE}/pwned3", 0o755) == 0)
attempt("rename the token away", lambda: posix.rename("{PUBLIC}", "{OUTSIDE}/stolen"))
open("scratch.txt", "w").write("the scratch directory is writable")
assert open("scratch.txt").read().startswith("the scratch")
done()
`},
	{"list and signal other processes", `
def pids():
    return [p for p in os.listdir("/proc") if p.isdigit()]
attempt("see the harness's process in /proc", lambda: "{PID}" in pids())
attempt("list processes that are not its own", lambda: len([p for p in pids() if int(p) != os.getpid()]) > 0)
attempt("read the harness's command line", lambda: open("/proc/{PID}/cmdline").read())
attempt("read the harness's environment", lambda: open("/proc/{PID}/environ").read())
attempt("signal the harness through ctypes", lambda: libc.kill({PID}, 0) == 0)
attempt("signal init through ctypes", lambda: libc.kill(1, 0) == 0 and os.getpid() != 1)
attempt("attach to the harness with ptrace", lambda: libc.ptrace(16, {PID}, 0, 0) == 0)
done()
`},
	{"call syscalls through ctypes", `
import platform
NR = {"x86_64": dict(bpf=321, keyctl=250, io_uring_setup=425, perf_event_open=298),
      "aarch64": dict(bpf=280, keyctl=219, io_uring_setup=425, perf_event_open=241)}[platform.machine()]
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
attempt("unshare a user namespace", lambda: libc.unshare(CLONE_NEWUSER) == 0)
attempt("unshare a mount namespace", lambda: libc.unshare(CLONE_NEWNS) == 0)
attempt("mount a tmpfs", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0)
attempt("become another user with setuid", lambda: libc.setuid(12345) == 0)
attempt("chroot", lambda: libc.chroot(b"/") == 0)
class Caps(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]
def effective():
    hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (Caps * 2)()
    if libc.capget(hdr, data) != 0:
        return False
    return any(d.effective or d.permitted for d in data)
attempt("hold effective or permitted capabilities", effective)
attempt("run without no_new_privs", lambda: libc.prctl(39, 0, 0, 0, 0) == 0)
attempt("create a BPF map", lambda: libc.syscall(NR["bpf"], 0, (ctypes.c_uint32 * 32)(2, 4, 4, 1), 128) >= 0)
attempt("open the session keyring", lambda: libc.syscall(NR["keyctl"], 0, -3, 1, 0, 0) >= 0)
attempt("set up io_uring", lambda: libc.syscall(NR["io_uring_setup"], 1, ctypes.create_string_buffer(120)) >= 0)
def perf():
    attr = (ctypes.c_uint32 * 32)()
    attr[0], attr[1] = 1, 128
    return libc.syscall(NR["perf_event_open"], attr, 0, -1, -1, 0) >= 0
attempt("open a perf event", perf)
done()
`},
	{"reach the network", `
import socket
def tcp():
    s = socket.create_connection(("127.0.0.1", {TCP}), timeout=2)
    return s.recv(100)
attempt("connect to the host's loopback", tcp)
attempt("connect to an outside address", lambda: socket.create_connection(("1.1.1.1", 53), timeout=2))
def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"hello from the sandbox", ("127.0.0.1", {UDP}))
attempt("send UDP to the host's loopback", lambda: udp() or False)
def abstract():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect("\0{ABSTRACT}")
attempt("connect to the host's abstract unix socket", abstract)
attempt("open a netlink socket", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
attempt("open a packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0))
attempt("open a socket through ctypes", lambda: libc.socket(16, 3, 0) >= 0)
done()
`},
}

// needSandbox fails, rather than skips, where the sandbox cannot confine
// programs: these checks must run wherever python3 is. Setting
// LMEVAL_SKIP_SANDBOX_TESTS=1 skips them explicitly.
func needSandbox(t *testing.T) {
	t.Helper()
	needPython(t)
	if os.Getenv("LMEVAL_SKIP_SANDBOX_TESTS") == "1" {
		t.Skip("LMEVAL_SKIP_SANDBOX_TESTS=1")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox needs Linux")
	}
}

// sandboxMode is one way to confine programs.
type sandboxMode struct {
	name string
	r    Runner
}

// sandboxModes are the sandbox as it runs by default, and each way of
// confining files alone, as systems that lack the other have it: Landlock
// without namespaces (files and the network held by Landlock and
// seccomp) and the mount namespace without Landlock.
func sandboxModes(t *testing.T) []sandboxMode {
	modes := []sandboxMode{
		{"default", Runner{}},
		{"mount namespace without Landlock", Runner{disable: noLandlock}},
	}
	// Without namespaces, root's programs run as nobody, who must be able
	// to read the interpreter: not one under /root (pyenv's).
	ll := sandboxMode{"Landlock without namespaces", Runner{disable: noNamespaces}}
	if os.Geteuid() == 0 {
		py, err := (&Runner{}).python()
		if err != nil {
			t.Fatal(err)
		}
		if in, err := probeInterpreter(context.Background(), py); err != nil || strings.HasPrefix(in.Exe, "/root/") {
			if _, err := os.Stat("/usr/bin/python3"); err != nil {
				t.Logf("skipping mode %q: the interpreter %s is under /root, which nobody cannot read, and there is no /usr/bin/python3", ll.name, py)
				return modes
			}
			ll.r.Python = "/usr/bin/python3"
		}
	}
	return append(modes, ll)
}

// TestHostilePrograms runs programs written to escape: each must be
// contained (pass: every attempt failed), and leave nothing behind.
func TestHostilePrograms(t *testing.T) {
	needSandbox(t)
	e := newHostileEnv(t)
	// A descriptor of the token opened without close-on-exec, as C
	// libraries in lmeval's process may leave them.
	leaked, err := syscall.Open(e.public, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(leaked)
	for _, m := range sandboxModes(t) {
		for _, p := range hostilePrograms {
			t.Run(m.name+"/"+p.name, func(t *testing.T) {
				r := m.r
				r.Timeout = 20 * time.Second
				res, err := r.Run(consent, escapedHelper+e.expand(p.program))
				if err != nil {
					t.Fatal(err)
				}
				if !res.Passed {
					t.Errorf("verdict %q", res.Verdict)
				}
			})
		}
	}
	for _, f := range []string{filepath.Join(e.outside, "pwned"), filepath.Join(e.outside, "pwned2"), filepath.Join(e.outside, "pwned3"),
		filepath.Join(e.home, "pwned"), fmt.Sprintf("/tmp/lmeval-hostile-%d", e.pid), filepath.Join(e.outside, "stolen")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created from inside the sandbox", f)
			os.RemoveAll(f)
		}
	}
	py, err := (&Runner{}).python()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-I", "-c", "import os; print(os.path.dirname(os.__file__))").Output(); err == nil {
		f := filepath.Join(strings.TrimSpace(string(out)), "lmeval_pwned.py")
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created from inside the sandbox", f)
			os.Remove(f)
		}
	}
	if b, err := os.ReadFile(e.public); err != nil || string(b) != "hf_SECRET_TOKEN" {
		t.Errorf("the token was changed or moved: %q, %v", b, err)
	}
	e.udp.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, _, err := e.udp.ReadFrom(make([]byte, 100)); err == nil {
		t.Errorf("the host received %d bytes of UDP from the sandbox", n)
	}
}

// TestForkBomb: a program forking without bound is stopped at its time
// limit, and none of its processes outlives it.
func TestForkBomb(t *testing.T) {
	needSandbox(t)
	name := fmt.Sprintf("lmbomb%d", os.Getpid()%100000)
	prog := fmt.Sprintf(`
import ctypes, posix
ctypes.CDLL(None).prctl(15, %q.encode(), 0, 0, 0)
while True:
    try:
        posix.fork()
    except OSError:
        pass
`, name)
	for _, m := range sandboxModes(t) {
		t.Run(m.name, func(t *testing.T) { forkBomb(t, m.r, name, prog) })
	}
}

func forkBomb(t *testing.T, r Runner, name, prog string) {
	r.Timeout = 2 * time.Second
	start := time.Now()
	res, err := r.Run(consent, prog)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed {
		t.Errorf("verdict %q", res.Verdict)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the fork bomb held the run for %v (limit 2s)", d)
	}
	// Processes killed with the program may take a moment to be reaped.
	var left []string
	for range 50 {
		left = processesNamed(name)
		if len(left) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("%d of the fork bomb's processes outlived it (pids %v)", len(left), left[:min(len(left), 10)])
		for _, p := range left {
			var pid int
			fmt.Sscan(p, &pid)
			if pid > 0 {
				if pr, err := os.FindProcess(pid); err == nil {
					pr.Kill()
				}
			}
		}
	}
}

// processesNamed lists the pids whose command name is name.
func processesNamed(name string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err == nil && strings.TrimSpace(string(b)) == name {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestRefusesUnconfined: where nothing confines a program's files, or
// nothing cuts its network, Run refuses, saying what is missing, unless
// the user accepted that (Consent.Unconfined); then the program runs with
// what there is.
func TestRefusesUnconfined(t *testing.T) {
	needSandbox(t)
	py := ""
	if os.Geteuid() == 0 {
		py = "/usr/bin/python3" // programs without a mount view run as nobody
		if _, err := os.Stat(py); err != nil {
			t.Skip("running as root without /usr/bin/python3")
		}
	}
	cases := []struct {
		name    string
		disable string
		want    string
	}{
		{"files", "mountview,landlock", "nothing confines the program's files"},
		{"network", "namespaces,seccomp", "nothing cuts the network"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvDisable, c.disable)
			r := &Runner{Python: py, Timeout: 20 * time.Second}
			_, err := r.Run(consent, "pass")
			if !errors.Is(err, ErrUnconfined) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--confirm_run_unconfined_code") {
				t.Fatalf("got %v, want ErrUnconfined saying %q and naming --confirm_run_unconfined_code", err, c.want)
			}
			if err := Check(consent); !errors.Is(err, ErrUnconfined) {
				t.Errorf("Check: got %v, want ErrUnconfined", err)
			}
			res, err := r.Run(WithConsent(context.Background(), Consent{Unconfined: true}), "pass")
			if err != nil || !res.Passed {
				t.Fatalf("with Consent.Unconfined: %+v, %v", res, err)
			}
		})
	}
	t.Setenv(EnvDisable, "landlock,apparmor")
	if _, err := (&Runner{}).Run(consent, "pass"); err == nil || !strings.Contains(err.Error(), `unknown mechanism "apparmor"`) {
		t.Errorf("bad %s: got %v", EnvDisable, err)
	}
}
