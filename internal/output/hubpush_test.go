package output

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/hub/hubtest"
)

// writeRun lays out a run's files as lmeval writes them.
func writeRun(t *testing.T, model string, tasks ...string) Layout {
	t.Helper()
	l := NewLayout(t.TempDir(), model, time.Date(2026, 3, 4, 5, 6, 7, 890123000, time.UTC))
	if err := l.WriteResults(map[string]any{"results": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if err := os.WriteFile(l.SamplesFile(task), []byte(`{"doc_id": 0, "task": "`+task+`"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// TestHubPublisher checks lm-eval's EvaluationTracker layout: repository
// names (lm-eval-results, "-private" unless public_repo, the token's owner
// without hub_results_org), the results file at <model_name>/<file>, the
// output folder at <model_name_sanitized>/ once per task (sorted) with
// the samples of the tasks so far, and lm-eval's commit messages.
func TestHubPublisher(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := hub.New(hub.Options{Endpoint: s.URL, Token: hubtest.Token})
	model := "org/model-GGUF:Q4_K_M"
	l := writeRun(t, model, "winogrande", "arc_easy")
	args := config.HubLogArgs{PushResultsToHub: true, PushSamplesToHub: true, Gated: true}
	p, err := NewHubPublisher(ctx, c, hubtest.Token, args, model)
	if err != nil {
		t.Fatal(err)
	}
	details, resultsRepo := p.Repos()
	if want := hubtest.User + "/lm-eval-results-private"; details != want || resultsRepo != want {
		t.Fatalf("repos %s, %s; want %s for both", details, resultsRepo, want)
	}
	if err := p.PushResults(ctx, l); err != nil {
		t.Fatal(err)
	}
	if err := p.PushSamples(ctx, l, []string{"winogrande", "arc_easy"}); err != nil {
		t.Fatal(err)
	}
	exists, private, gated := s.Repo("dataset", details)
	if !exists || !private || !gated {
		t.Errorf("details repo exists=%v private=%v gated=%v", exists, private, gated)
	}
	res := filepath.Base(l.ResultsFile)
	san := results.SanitizeModelName(model)
	commits := s.Commits("dataset", details)
	want := []hubtest.Commit{
		{Message: "Adding aggregated results for " + model, Paths: []string{model + "/" + res}},
		{Message: "Adding samples results for arc_easy to " + model, Paths: []string{san + "/" + res, san + "/" + filepath.Base(l.SamplesFile("arc_easy"))}},
		{Message: "Adding samples results for winogrande to " + model, Paths: nil},
	}
	if len(commits) != len(want) {
		t.Fatalf("commits %+v", commits)
	}
	for i, w := range want {
		if commits[i].Message != w.Message {
			t.Errorf("commit %d message %q, want %q", i, commits[i].Message, w.Message)
		}
		if w.Paths != nil && strings.Join(sortedCopy(commits[i].Paths), " ") != strings.Join(sortedCopy(w.Paths), " ") {
			t.Errorf("commit %d paths %v, want %v", i, commits[i].Paths, w.Paths)
		}
	}
	if n := len(commits[2].Paths); n != 3 {
		t.Errorf("last samples commit has %d files, want the results and both samples files", n)
	}
	for _, f := range []string{l.ResultsFile, l.SamplesFile("arc_easy"), l.SamplesFile("winogrande")} {
		local, _ := os.ReadFile(f)
		got, ok := s.File("dataset", details, "", san+"/"+filepath.Base(f))
		if !ok || string(got) != string(local) {
			t.Errorf("%s on the Hub = %q, want the local %q", filepath.Base(f), got, local)
		}
	}

	// Public repositories with their own names.
	args = config.HubLogArgs{HubResultsOrg: "team", DetailsRepoName: "details", PushResultsToHub: true, PublicRepo: true}
	p, err = NewHubPublisher(ctx, c, hubtest.Token, args, model)
	if err != nil {
		t.Fatal(err)
	}
	if d, r := p.Repos(); d != "team/details" || r != "team/details" {
		t.Errorf("repos %s, %s", d, r)
	}
	if err := p.PushResults(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, private, _ := s.Repo("dataset", "team/details"); private {
		t.Error("public_repo=True made a private repository")
	}
}

// TestHubPublisherFailure: a push that fails is an error naming what was
// not pushed, and the local files are left as they were.
func TestHubPublisherFailure(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := hub.New(hub.Options{Endpoint: s.URL, Token: hubtest.Token})
	l := writeRun(t, "m.gguf", "gsm8k")
	before, _ := os.ReadFile(l.SamplesFile("gsm8k"))
	p, err := NewHubPublisher(ctx, c, hubtest.Token, config.HubLogArgs{HubResultsOrg: "o", PushResultsToHub: true, PushSamplesToHub: true}, "m.gguf")
	if err != nil {
		t.Fatal(err)
	}
	s.FailCommits(2)
	if err := p.PushResults(ctx, l); err == nil || !strings.Contains(err.Error(), "push results") {
		t.Errorf("PushResults during a Hub failure: %v", err)
	}
	if err := p.PushSamples(ctx, l, []string{"gsm8k"}); err == nil || !strings.Contains(err.Error(), "gsm8k") {
		t.Errorf("PushSamples during a Hub failure: %v", err)
	}
	after, err := os.ReadFile(l.SamplesFile("gsm8k"))
	if err != nil || string(after) != string(before) {
		t.Errorf("local samples changed: %q, %v", after, err)
	}
	if _, err := os.Stat(l.ResultsFile); err != nil {
		t.Errorf("local results file: %v", err)
	}
	if _, err := NewHubPublisher(ctx, c, "", config.HubLogArgs{PushResultsToHub: true}, "m"); err == nil || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Errorf("no token: %v", err)
	}
}

func sortedCopy(s []string) []string { return slices.Sorted(slices.Values(s)) }
