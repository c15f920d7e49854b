// Package pysource checks, in the ports' tests, that the lm-eval sources a
// port records (task.Helper's sha256) are lm-eval's own: against the task
// tree in ../shared, and against the sources a port's vector generator
// recorded. It is for tests only (it links package testing), so only
// _test.go files import it.
package pysource

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

// TasksDir is lm-eval's task tree in the ../shared folder beside the
// repository (shared/lm-eval/lm_eval/tasks), whether or not it exists.
func TasksDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks")
}

// Verify fails t for each source of srcs whose recorded sha256 differs
// from lm-eval's own in ../shared (task.CheckSources), and skips t when
// that tree is absent.
func Verify(t testing.TB, srcs ...[]task.Helper) {
	t.Helper()
	dir := TasksDir()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("lm-eval's task tree is not in ../shared: %v", err)
	}
	var all []task.Helper
	for _, s := range srcs {
		all = append(all, s...)
	}
	for _, err := range task.CheckSources(dir, all) {
		t.Error(err)
	}
}

// VerifyRecorded fails t unless every source of srcs is a function of
// file whose sha256 a port's vector generator recorded (function name to
// sha256) as the same, so that the vectors were made from the sources the
// port names, with or without ../shared. The generator may record more
// (the code a port runs rather than ports).
func VerifyRecorded(t testing.TB, srcs []task.Helper, file string, recorded map[string]string) {
	t.Helper()
	for _, s := range srcs {
		switch want, ok := recorded[s.Function]; {
		case s.File != file:
			t.Errorf("%s:%s: the vectors are of %s", s.File, s.Function, file)
		case !ok:
			t.Errorf("%s:%s: the vectors record no sha256 for it", s.File, s.Function)
		case want != s.SHA256:
			t.Errorf("%s:%s: sha256 %s, the vectors' (lm-eval's) %s", s.File, s.Function, s.SHA256, want)
		}
	}
}

// VerifyRecordedAll is VerifyRecorded where the generator records
// exactly the port's sources: a recorded function the port does not name
// fails t too.
func VerifyRecordedAll(t testing.TB, srcs []task.Helper, file string, recorded map[string]string) {
	t.Helper()
	VerifyRecorded(t, srcs, file, recorded)
	named := map[string]bool{}
	for _, s := range srcs {
		named[s.Function] = true
	}
	for f := range recorded {
		if !named[f] {
			t.Errorf("%s:%s: recorded by the vectors, not in the port's Sources", file, f)
		}
	}
}
