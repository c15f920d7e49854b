package ifeval

import (
	"os"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pysource"
)

// TestSourcesRecorded: every hook and dependency in register.go carries
// the sha256 testdata/gen_sha.py computed from lm-eval's Python (written to
// testdata/sources.txt), and every checker class the registry uses is
// listed.
func TestSourcesRecorded(t *testing.T) {
	raw, err := os.ReadFile("testdata/sources.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("sources.txt: bad line %q", line)
		}
		want[[2]string{f[0], f[1]}] = f[2]
	}
	for _, s := range append(append([]task.Helper(nil), Hooks...), Dependencies...) {
		sha, ok := want[[2]string{s.File, s.Function}]
		if !ok {
			t.Errorf("%s:%s is not in sources.txt", s.File, s.Function)
		} else if sha != s.SHA256 {
			t.Errorf("%s:%s: register.go has sha256 %s, lm-eval's source has %s", s.File, s.Function, s.SHA256, sha)
		}
	}
	if got := len(IDs()); got != 25 {
		t.Errorf("%d instruction ids, want lm-eval's 25", got)
	}
	checkers := 0
	for _, s := range Dependencies {
		if s.File == "ifeval/instructions.py" {
			checkers++
		}
	}
	if checkers != 25 {
		t.Errorf("%d checker classes recorded, want 25", checkers)
	}
}

// TestSourcesMatchLMEval checks the recorded sha256 of every ported
// function and class against lm-eval's task tree in ../shared.
func TestSourcesMatchLMEval(t *testing.T) {
	pysource.Verify(t, Hooks, Dependencies)
}
