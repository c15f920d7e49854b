package codeexec

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on this machine")
	}
}

// consent is a context that carries the user's consent (to confined
// programs only).
var consent = WithConsent(context.Background(), Consent{})

func TestRunVerdicts(t *testing.T) {
	needPython(t)
	// Programs that end on their own get a generous limit, so a loaded
	// machine cannot turn their verdict into "timed out"; the loops get a
	// short one.
	cases := []struct {
		name, program, want string
	}{
		{"pass", "def add(a, b):\n    return a + b\nassert add(2, 3) == 5\n", "passed"},
		{"fail", "def add(a, b):\n    return a * b\nassert add(2, 3) == 5\n", "failed: "},
		{"fail with message", "raise ValueError('boom')\n", "failed: boom"},
		{"syntax error", "def f(:\n", "failed: "}, // the message is the interpreter's own
		{"loop forever", "while True:\n    pass\n", "timed out"},
		{"loop ignoring the alarm", "while True:\n    try:\n        while True: pass\n    except BaseException: pass\n", "timed out"},
		{"allocate without bound", "x = []\nwhile True:\n    x.append(bytearray(1 << 28))\n", "failed: "},
		{"threads under the memory limit", "import threading\nts = [threading.Thread(target=lambda: None) for _ in range(8)]\n[t.start() for t in ts]\n[t.join() for t in ts]\n", "passed"},
		{"disabled os.system", "import os\nos.system('true')\n", "failed: 'NoneType' object is not callable"},
		{"prints swallowed", "print('hello' * 1000)\nimport sys\nsys.stderr.write('x')\n", "passed"},
		{"reads stdin", "input()\n", "failed: "},
		{"exits the interpreter", "import os\nos._exit(3)\n", "timed out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &Runner{Timeout: 30 * time.Second, Memory: 512 << 20}
			if c.want == TimedOut {
				r.Timeout = time.Second
			}
			start := time.Now()
			res, err := r.Run(consent, c.program)
			if err != nil {
				t.Fatal(err)
			}
			ok := res.Verdict == c.want
			if c.name == "syntax error" {
				ok = strings.HasPrefix(res.Verdict, "failed: ") && len(res.Verdict) > len("failed: ")
			}
			if !ok {
				t.Errorf("verdict %q, want %q", res.Verdict, c.want)
			}
			if res.Passed != (c.want == Passed) {
				t.Errorf("Passed = %v for verdict %q", res.Passed, res.Verdict)
			}
			if d := time.Since(start); d > r.Timeout+2*time.Second {
				t.Errorf("took %v, limit %v", d, r.Timeout)
			}
		})
	}
}

func TestNoNetwork(t *testing.T) {
	needPython(t)
	r := &Runner{Timeout: 5 * time.Second}
	// Outside the sandbox this fails only for lack of a route; inside,
	// there is no interface at all.
	prog := `import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(2)
s.connect(("1.1.1.1", 80))
`
	res, err := r.Run(consent, prog)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Isolated {
		t.Skip("this system allows no network namespace (see the warning); socket test not meaningful")
	}
	if res.Passed || !strings.HasPrefix(res.Verdict, "failed: ") {
		t.Errorf("socket connect: verdict %q, want a failure", res.Verdict)
	}
	// Even loopback is down in the new namespace.
	res, err = r.Run(consent, "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\nc = socket.create_connection(s.getsockname(), timeout=1)\n")
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed {
		t.Errorf("loopback connection inside the sandbox succeeded")
	}
}

func TestScratchDirRemoved(t *testing.T) {
	needPython(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r := &Runner{}
	res, err := r.Run(consent, "open('left.txt', 'w').write('x')\nimport os\nos.makedirs('a/b')\n")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Fatalf("verdict %q", res.Verdict)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "*"))
	if len(left) != 0 {
		t.Errorf("scratch left behind: %v", left)
	}
}

func TestRefusals(t *testing.T) {
	if _, err := (&Runner{}).Run(context.Background(), "pass"); !errors.Is(err, ErrNotConfirmed) {
		t.Errorf("unconfirmed: got %v, want ErrNotConfirmed", err)
	}
	_, err := (&Runner{Python: filepath.Join(t.TempDir(), "no-python3")}).Run(consent, "pass")
	if !errors.Is(err, ErrNoPython) {
		t.Errorf("missing interpreter: got %v, want ErrNoPython", err)
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LMEVAL_PYTHON", "")
	if _, err := (&Runner{}).Run(consent, "pass"); !errors.Is(err, ErrNoPython) {
		t.Errorf("no python3 on PATH: got %v, want ErrNoPython", err)
	}
}

// The estimator against values computed independently with exact
// binomials: 1 - C(n-c, k) / C(n, k).
func TestEstimatePassAtK(t *testing.T) {
	binom := func(n, k int) float64 {
		if k < 0 || k > n {
			return 0
		}
		r := 1.0
		for i := 1; i <= k; i++ {
			r = r * float64(n-k+i) / float64(i)
		}
		return r
	}
	for n := 1; n <= 64; n += 7 {
		for c := 0; c <= n; c += 3 {
			for _, k := range []int{1, 2, 8, 16, 32, 64} {
				if k > n {
					continue
				}
				want := 1 - binom(n-c, k)/binom(n, k)
				if got := EstimatePassAtK(n, c, k); math.Abs(got-want) > 1e-9 {
					t.Errorf("n=%d c=%d k=%d: %v, want %v", n, c, k, got, want)
				}
			}
		}
	}
}

func TestPassAtK(t *testing.T) {
	needPython(t)
	r := &Runner{}
	refs := []string{"assert add(2, 3) == 5", "assert sub(5, 3) == 2"}
	preds := [][]string{
		{"def add(a, b): return a + b", "def add(a, b): return a * b"},
		{"def sub(a, b): return a - b", "def sub(a, b): return b - a"},
	}
	score, res, err := r.PassAtK(consent, refs, preds, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if score["pass@1"] != 0.5 || score["pass@2"] != 1 {
		t.Errorf("score %v, want pass@1 0.5, pass@2 1", score)
	}
	if _, ok := score["pass@3"]; ok {
		t.Errorf("pass@3 reported with 2 candidates per problem: %v", score)
	}
	if !res[0][0].Passed || res[0][1].Passed || !res[1][0].Passed || res[1][1].Passed {
		t.Errorf("verdicts %+v", res)
	}
}
