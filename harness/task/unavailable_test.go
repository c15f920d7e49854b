package task

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// A helper registered as Unavailable makes its tasks unavailable, with
// the port's reason in the message.
func TestUnavailableHelper(t *testing.T) {
	fsys := fstest.MapFS{
		"u/judge.yaml": {Data: []byte("task: judged_task\ndataset_path: d\ntest_split: t\noutput_type: generate_until\nprocess_results: !function judge.score\n")},
	}
	RegisterFunction("u", "judge.score", Unavailable{Reason: "it asks a hosted judge model"})
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	_, err := r.Load([]string{"judged_task"})
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("err %v, want an UnavailableError", err)
	}
	if !strings.Contains(ue.Reason, "needs Python function judge.score (it asks a hosted judge model)") {
		t.Errorf("reason %q", ue.Reason)
	}
}
