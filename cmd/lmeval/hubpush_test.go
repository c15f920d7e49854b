package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/hub/hubtest"
)

// TestRunPushesToHub runs 'lmeval run --hf_hub_log_args' against the fake
// Hub: the results and samples files land in lm-eval's repositories and
// paths, byte for byte as written locally; a Hub that fails every commit
// leaves the run successful and its files in place; without HF_TOKEN the
// run stops before evaluating.
func TestRunPushesToHub(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	t.Setenv("HF_TOKEN", hubtest.Token)
	t.Chdir(harnessDir)
	run := func(out string, extra ...string) error {
		args := append([]string{"run", "--model", "dummy", "--model_args", "pretrained=org/tiny", "--tasks", "toy_gen",
			"--include_path", "testdata/tasks", "--output_path", out, "--log_samples", "--no_progress", "--bootstrap_iters", "0"}, extra...)
		_, err := runApp(t, args...)
		return err
	}

	out := t.TempDir()
	if err := run(out, "--hf_hub_log_args", "hub_results_org=team,push_results_to_hub=True,push_samples_to_hub=True"); err != nil {
		t.Fatal(err)
	}
	resFiles, _ := filepath.Glob(filepath.Join(out, "org__tiny", "results_*.json"))
	smpFiles, _ := filepath.Glob(filepath.Join(out, "org__tiny", "samples_toy_gen_*.jsonl"))
	if len(resFiles) != 1 || len(smpFiles) != 1 {
		t.Fatalf("local files: %v %v", resFiles, smpFiles)
	}
	repo := "team/lm-eval-results-private"
	for path, local := range map[string]string{
		"org/tiny/" + filepath.Base(resFiles[0]):  resFiles[0], // results: <model_name>/<file>
		"org__tiny/" + filepath.Base(resFiles[0]): resFiles[0], // samples: the folder at <model_name_sanitized>/
		"org__tiny/" + filepath.Base(smpFiles[0]): smpFiles[0],
	} {
		want, _ := os.ReadFile(local)
		got, ok := s.File("dataset", repo, "", path)
		if !ok || string(got) != string(want) {
			t.Errorf("%s on the Hub: %v, %d bytes; want the %d bytes of %s", path, ok, len(got), len(want), local)
		}
	}
	if c := s.Commits("dataset", repo); len(c) != 2 || c[0].Message != "Adding aggregated results for org/tiny" ||
		c[1].Message != "Adding samples results for toy_gen to org/tiny" {
		t.Errorf("commits %+v", c)
	}

	// Every commit fails: the run still succeeds and keeps its files.
	s.FailCommits(100)
	out2 := t.TempDir()
	if err := run(out2, "--hf_hub_log_args", "hub_results_org=team2,push_results_to_hub=True,push_samples_to_hub=True"); err != nil {
		t.Fatalf("a failed push failed the run: %v", err)
	}
	if f, _ := filepath.Glob(filepath.Join(out2, "org__tiny", "*_toy_gen_*.jsonl")); len(f) != 1 {
		t.Errorf("local samples after a failed push: %v", f)
	}
	if c := s.Commits("dataset", "team2/lm-eval-results-private"); len(c) != 0 {
		t.Errorf("commits during the failure: %+v", c)
	}

	// No token: an error before anything runs.
	t.Setenv("HF_TOKEN", "")
	out3 := t.TempDir()
	if err := run(out3, "--hf_hub_log_args", "push_results_to_hub=True"); err == nil || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Errorf("push without HF_TOKEN: %v", err)
	}
	if f, _ := filepath.Glob(filepath.Join(out3, "*", "results_*.json")); len(f) != 0 {
		t.Errorf("results written although the push could not be made: %v", f)
	}
}
