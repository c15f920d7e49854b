package harness

import (
	"github.com/lmeval/lmeval/backend/dummy"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestsLogSaysMerged: the "requests" log line says how many
// requests the model gets once identical ones are merged, and how many
// were merged: three documents asking the same two questions, and a
// second task asking them again, are 12 requests for 2.
func TestRequestsLogSaysMerged(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "same.jsonl")
	if err := os.WriteFile(data, []byte(strings.Repeat(`{"q": "same"}`+"\n", 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"same_a", "same_b"} {
		yaml := "task: " + name + "\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: " + data +
			"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"{{q}}\"\ndoc_to_choice: [\"a\", \"b\"]\ndoc_to_target: 0\n"
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lm, _ := dummy.New(nil)
	_, logs := evaluateLogged(t, lm, []string{dir}, []string{"same_a", "same_b"})
	var line string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "msg=requests ") {
			line = l
		}
	}
	for _, w := range []string{"total=12 ", "unique=2 ", "merged=10 ", "loglikelihood=2 "} {
		if !strings.Contains(line, w) {
			t.Errorf("requests log line lacks %q: %s", w, line)
		}
	}
}
