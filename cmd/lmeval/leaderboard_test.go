package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/fidelity/leaderboard"
)

// markdownRows reads a markdown table's rows into trimmed cells.
func markdownRows(s string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || strings.Trim(line, "|-: ") == "" {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestLeaderboardStories260K is
//
//	lmeval run --model llama --model_args pretrained=stories260K.gguf \
//	  --tasks leaderboard --limit 2 --include_path lm-eval/lm_eval/tasks
//
// with the leaderboard's datasets served by a fake Hub under their real
// names (fidelity/leaderboard/data): the run completes and prints lm-eval's
// tables, every task and group row of the real lm-eval's run over the same
// documents (fidelity/leaderboard/expected.json) with the same filter,
// n-shot and metric; the values are the model's. (The values with
// lm-eval's own answers are fidelity.TestLeaderboardEndToEnd's.) Generations
// are capped at 32 tokens (--gen_kwargs): stories260K never stops on the
// tasks' stop strings, and 16 generations of up to 1280 tokens take minutes
// on a small machine; the tables' layout is the same.
func TestLeaderboardStories260K(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole leaderboard on a model (-short)")
	}
	model := filepath.Join("..", "..", "..", "shared", "models", "stories260K.gguf")
	tasks := filepath.Join("..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks")
	for _, p := range []string{model, tasks} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s not available", p)
		}
	}
	b, err := os.ReadFile(filepath.Join(leaderboard.Dir(), "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Tables string `json:"tables"`
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	leaderboard.ServeHub(t)
	out, err := runApp(t, "run", "--model", "llama", "--model_args", "pretrained="+model+",threads=2",
		"--tasks", "leaderboard", "--limit", "2", "--include_path", tasks, "--no_progress", "--gen_kwargs", "max_gen_toks=32")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lmeval printed:\n%s", out)
	// Name, filter, n-shot, metric and arrow: the layout of each row.
	layout := func(rows [][]string) []string {
		var out []string
		for _, r := range rows {
			if len(r) < 6 {
				continue
			}
			out = append(out, strings.Join([]string{r[0], r[2], r[3], r[4], r[5]}, "|"))
		}
		return out
	}
	got, exp := layout(markdownRows(out)), layout(markdownRows(want.Tables))
	if len(got) != len(exp) {
		t.Errorf("%d table rows, lm-eval %d", len(got), len(exp))
	}
	for i := range min(len(got), len(exp)) {
		if got[i] != exp[i] {
			t.Errorf("row %d: %q, lm-eval %q", i, got[i], exp[i])
		}
	}
	for _, g := range []string{"leaderboard_bbh", "leaderboard_gpqa", "leaderboard_math_hard", "leaderboard_musr", "leaderboard_ifeval", "leaderboard_mmlu_pro"} {
		if !strings.Contains(out, g) {
			t.Errorf("the tables lack %s", g)
		}
	}
}
