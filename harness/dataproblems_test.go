package harness

import (
	"context"
	"encoding/json"
	"github.com/lmeval/lmeval/backend/dummy"
	"log/slog"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// evaluateLogged evaluates tasks, found in the built-in tree and dirs,
// on lm without bootstrapping, and returns the results and the logs the
// evaluation wrote.
func evaluateLogged(t *testing.T, lm model.LM, dirs, tasks []string, opts ...Option) (*results.Results, string) {
	t.Helper()
	r, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: dirs, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	cfg := testConfig(t, tasks...)
	cfg.BootstrapIters = 0
	res, err := evaluate(context.Background(), cfg, lm, append([]Option{WithRegistry(r)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return res, logs.String()
}

// TestDataProblemsWarnedAndRecorded: documents whose gold is no choice and
// documents whose fields render as None (testdata/holes) are scored as
// lm-eval scores them, warned about once per task with their count and
// the first of them, and counted in the results' lmeval.data_problems.
func TestDataProblemsWarnedAndRecorded(t *testing.T) {
	lm, _ := dummy.New(nil)
	sink := newMemSamples()
	res, out := evaluateLogged(t, lm, []string{"testdata/holes"}, []string{"holes_mc"}, WithSamples(sink.open))
	if n := strings.Count(out, "renders as None"); n != 1 {
		t.Errorf("warned %d times about fields rendering as None, want once:\n%s", n, out)
	}
	var none string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "renders as None") {
			none = line
		}
	}
	for _, w := range []string{"level=WARN", "task=holes_mc", "doc_id=1", "field=q", "documents=2"} {
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
	want := map[string]int{"gold_not_in_choices": 2, "none_fields": 2}
	got := block.DataProblems["holes_mc"]
	if len(got) != len(want) || got["gold_not_in_choices"] != 2 || got["none_fields"] != 2 {
		t.Errorf("lmeval.data_problems = %v, want holes_mc: %v", block.DataProblems, want)
	}
}
