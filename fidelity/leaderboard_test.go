package fidelity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/fidelity/leaderboard"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
)

// leaderboardExpected is leaderboard/expected.json, written by
// leaderboard/gen.py from the real lm-eval.
type leaderboardExpected struct {
	Requests []struct {
		Task        string          `json:"task"`
		DocID       int             `json:"doc_id"`
		Idx         int             `json:"idx"`
		RequestType string          `json:"request_type"`
		Arguments   []any           `json:"arguments"`
		Answer      json.RawMessage `json:"answer"`
	} `json:"requests"`
	Results        map[string]map[string]any `json:"results"`
	Groups         map[string]map[string]any `json:"groups"`
	GroupSubtasks  map[string][]string       `json:"group_subtasks"`
	NShot          map[string]any            `json:"n-shot"`
	Versions       map[string]any            `json:"versions"`
	HigherIsBetter map[string]map[string]any `json:"higher_is_better"`
	Tables         string                    `json:"tables"`
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestLeaderboardEndToEnd runs lm-eval's `leaderboard` group, its YAML
// unchanged, with --limit 2 over local documents served under the real
// dataset names, answering with the answers the real lm-eval got
// (leaderboard/gen.py), and compares the printed tables (tasks and groups,
// byte for byte) and the results' groups, subtasks, n-shot, versions and
// higher_is_better with lm-eval's.
func TestLeaderboardEndToEnd(t *testing.T) {
	tasksDir, err := filepath.Abs(lmevalTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	var want leaderboardExpected
	b, err := os.ReadFile(filepath.Join(leaderboard.Dir(), "expected.json"))
	if err != nil {
		t.Fatalf("%v (run fidelity/leaderboard/gen.py)", err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	leaderboard.ServeHub(t)
	var reqs expected
	for _, r := range want.Requests {
		reqs.Requests = append(reqs.Requests, struct {
			DocID       int             `json:"doc_id"`
			Idx         int             `json:"idx"`
			RequestType string          `json:"request_type"`
			Arguments   []any           `json:"arguments"`
			Answer      json.RawMessage `json:"answer"`
		}{r.DocID, r.Idx, r.RequestType, r.Arguments, r.Answer})
	}
	lm := newReplayLM(t, &reqs)
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
		"model": "dummy", "tasks": []string{"leaderboard"}, "include_path": []string{tasksDir}, "limit": "2",
	}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := harness.NewPlan(cfg, harness.WithBuiltinTasks(benchmarks.FS()), harness.WithWriteOut(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Evaluate(context.Background(), lm)
	if err != nil {
		t.Fatal(err)
	}
	if len(lm.missing) > 0 {
		t.Errorf("%d requests lm-eval did not make; first: %s", len(lm.missing), lm.missing[0])
	}
	// The tables as the CLI prints them (res.Tables()), byte for byte with
	// what lm-eval's make_table printed through the real pytablewriter
	// (leaderboard/gen.py run by scripts/parity/realgen_all.py).
	if got := res.Tables(); got != want.Tables {
		gotRows, wantRows := strings.Split(got, "\n"), strings.Split(want.Tables, "\n")
		for i := 0; i < max(len(gotRows), len(wantRows)); i++ {
			var g, w string
			if i < len(gotRows) {
				g = gotRows[i]
			}
			if i < len(wantRows) {
				w = wantRows[i]
			}
			if g != w {
				t.Errorf("table line %d:\n  got    %q\n  lm-eval %q", i, g, w)
			}
		}
	}

	data, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var gotJSON leaderboardExpected
	if err := json.Unmarshal(data, &gotJSON); err != nil {
		t.Fatal(err)
	}
	for name, wg := range want.Groups {
		gg := gotJSON.Groups[name]
		for k, wv := range wg {
			if !sameValue(gg[k], wv) {
				t.Errorf("groups %s %q: got %v, lm-eval %v", name, k, gg[k], wv)
			}
		}
	}
	if len(gotJSON.Groups) != len(want.Groups) {
		t.Errorf("groups %v, lm-eval %v", sortedKeys(gotJSON.Groups), sortedKeys(want.Groups))
	}
	for name, ws := range want.GroupSubtasks {
		if strings.Join(gotJSON.GroupSubtasks[name], ",") != strings.Join(ws, ",") {
			t.Errorf("group_subtasks %s: got %v, lm-eval %v", name, gotJSON.GroupSubtasks[name], ws)
		}
	}
	for name, w := range want.NShot {
		if !sameValue(gotJSON.NShot[name], w) {
			t.Errorf("n-shot %s: got %v, lm-eval %v", name, gotJSON.NShot[name], w)
		}
	}
	for name, w := range want.Versions {
		if fmt.Sprint(gotJSON.Versions[name]) != fmt.Sprint(w) {
			t.Errorf("versions %s: got %v, lm-eval %v", name, gotJSON.Versions[name], w)
		}
	}
	for name, w := range want.HigherIsBetter {
		if fmt.Sprint(gotJSON.HigherIsBetter[name]) != fmt.Sprint(w) {
			t.Errorf("higher_is_better %s: got %v, lm-eval %v", name, gotJSON.HigherIsBetter[name], w)
		}
	}
}
