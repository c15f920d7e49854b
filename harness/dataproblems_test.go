package harness

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/model"
)

// dataProblemsCSV is a multiple-choice dataset with a hole in each way a
// hand-made CSV has them: a missing question (document 1, which lm-eval
// renders "Q: None"), a label past the choices (document 2), a missing
// cell no template reads (document 4, harmless), and a choice whose own
// text says "None" (document 3, no hole at all).
const dataProblemsCSV = `q,a,b,label,note
one,x,y,0,
,x,y,1,n
three,x,y,5,n
four,None of these,y,1,n
five,x,y,0,
`

func dataProblemsTask(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	data := filepath.Join(dir, "holes.csv")
	if err := os.WriteFile(data, []byte(dataProblemsCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := "task: holes_mc\ndataset_path: csv\ndataset_kwargs:\n  data_files:\n    test: " + data +
		"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"Q: {{q}}\"\ndoc_to_choice: \"{{[a, b]}}\"\n" +
		"doc_to_target: label\nmetric_list:\n  - metric: acc\n"
	if err := os.WriteFile(filepath.Join(dir, "holes.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDataProblemsWarnedAndRecorded: documents whose gold is no choice and
// documents whose fields render as None are scored as lm-eval scores them,
// warned about once per task with their count and the first of them, and
// counted in the results' lmeval.data_problems.
func TestDataProblemsWarnedAndRecorded(t *testing.T) {
	r, err := NewRegistry(benchmarks.FS(), []string{dataProblemsTask(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	lm, _ := model.NewDummy(nil)
	cfg := testConfig(t, "holes_mc")
	cfg.BootstrapIters = 0
	sink := newMemSamples()
	res, err := Evaluate(context.Background(), cfg, lm, WithRegistry(r), WithSamples(sink.open))
	if err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	if n := strings.Count(out, "renders as None"); n != 1 {
		t.Errorf("warned %d times about fields rendering as None, want once:\n%s", n, out)
	}
	var none string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "renders as None") {
			none = line
		}
	}
	for _, w := range []string{"level=WARN", "task=holes_mc", "doc_id=1", "field=q", "documents=1"} {
		if !strings.Contains(none, w) {
			t.Errorf("None warning lacks %q: %s", w, none)
		}
	}
	if n := strings.Count(out, "gold answer is not one of the choices"); n != 1 {
		t.Errorf("warned %d times about golds, want once:\n%s", n, out)
	}
	// The prompts are lm-eval's: the hole renders as "None".
	for _, s := range sink.byTask["holes_mc"] {
		if s.DocID == 1 {
			args, _ := json.Marshal(s.Arguments)
			if !strings.Contains(string(args), "Q: None") {
				t.Errorf("document 1's prompt is not lm-eval's %q: %s", "Q: None", args)
			}
		}
	}
	if res.LMEval == nil {
		t.Fatal("no lmeval block")
	}
	data, err := json.Marshal(res.LMEval)
	if err != nil {
		t.Fatal(err)
	}
	var block struct {
		DataProblems map[string]map[string]int `json:"data_problems"`
	}
	if err := json.Unmarshal(data, &block); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"gold_not_in_choices": 1, "none_fields": 1}
	got := block.DataProblems["holes_mc"]
	if len(got) != len(want) || got["gold_not_in_choices"] != 1 || got["none_fields"] != 1 {
		t.Errorf("lmeval.data_problems = %v, want holes_mc: %v", block.DataProblems, want)
	}
}
