package config

import (
	"strings"
	"testing"
)

func TestHubLogArgs(t *testing.T) {
	base := func(extra ...any) Layer {
		return flags(append([]any{"tasks", []string{"x"}, "output_path", "out"}, extra...)...)
	}
	for _, tc := range []struct {
		layer Layer
		want  HubLogArgs
	}{
		// lm-eval's form: k=v pairs (comma separated or repeated), Python bools.
		{base("hf_hub_log_args", []string{"hub_results_org=EleutherAI,push_results_to_hub=True", "push_samples_to_hub=True,public_repo=False"}),
			HubLogArgs{HubResultsOrg: "EleutherAI", PushResultsToHub: true, PushSamplesToHub: true}},
		{base("hf_hub_log_args", []string{`{"details_repo_name": "d", "results_repo_name": "r", "gated": true}`}),
			HubLogArgs{DetailsRepoName: "d", ResultsRepoName: "r", Gated: true}},
		// A config file's mapping.
		{Layer{Source: "config file", Values: map[string]any{"tasks": []any{"x"}, "output_path": "o",
			"hf_hub_log_args": map[string]any{"hub_repo_name": "same", "push_results_to_hub": true}}},
			HubLogArgs{HubRepoName: "same", PushResultsToHub: true}},
	} {
		c, err := Resolve(tc.layer)
		if err != nil {
			t.Errorf("%v: %v", tc.layer.Values, err)
			continue
		}
		if c.HFHubLogArgs != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.layer.Values, c.HFHubLogArgs, tc.want)
		}
	}
	for _, tc := range []struct {
		layer Layer
		want  string
	}{
		{base("hf_hub_log_args", []string{"push_to_hub=True"}), `unknown key "push_to_hub"`},
		{base("hf_hub_log_args", []string{"leaderboard_url=x"}), "dataset card"},
		{base("hf_hub_log_args", []string{"public_repo=maybe"}), "public_repo"},
		{flags("tasks", []string{"x"}, "hf_hub_log_args", []string{"push_samples_to_hub=True"}), "needs --output_path"},
	} {
		if _, err := Resolve(tc.layer); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.layer.Values, err, tc.want)
		}
	}
}

// The repository names of lm-eval's EvaluationTracker.__init__.
func TestHubLogRepos(t *testing.T) {
	for _, tc := range []struct {
		args             HubLogArgs
		details, results string
	}{
		{HubLogArgs{}, "o/lm-eval-results-private", "o/lm-eval-results-private"},
		{HubLogArgs{PublicRepo: true}, "o/lm-eval-results", "o/lm-eval-results"},
		{HubLogArgs{DetailsRepoName: "d", PublicRepo: true}, "o/d", "o/d"},
		{HubLogArgs{DetailsRepoName: "d", ResultsRepoName: "r"}, "o/d-private", "o/r-private"},
		{HubLogArgs{HubRepoName: "h", DetailsRepoName: "d", ResultsRepoName: "r", PublicRepo: true}, "o/h", "o/h"},
	} {
		d, r := tc.args.Repos("o")
		if d != tc.details || r != tc.results {
			t.Errorf("%+v: %s, %s; want %s, %s", tc.args, d, r, tc.details, tc.results)
		}
	}
}
