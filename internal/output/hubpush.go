package output

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/hub"
)

// HubPublisher publishes a run's results and samples files on the Hugging
// Face Hub as lm-eval's EvaluationTracker does with --hf_hub_log_args
// (save_results_aggregated and save_results_samples): into dataset
// repositories that it creates (private ones named "-private" unless
// public_repo), one commit per file set, with lm-eval's paths and commit
// messages. lm-eval's dataset card (README.md, recreate_metadata_card) is
// not written.
type HubPublisher struct {
	client *hub.Client
	args   config.HubLogArgs
	// details and results are the repositories of the samples and of the
	// results file.
	details, results hub.Repo
	modelName        string
}

// NewHubPublisher checks that a push can be made before the run starts, as
// lm-eval's tracker does: a token is needed (HF_TOKEN), and without
// hub_results_org the repositories belong to the token's owner, asked of
// the Hub. modelName is the run's model name (ModelName).
func NewHubPublisher(ctx context.Context, c *hub.Client, token string, args config.HubLogArgs, modelName string) (*HubPublisher, error) {
	if token == "" {
		return nil, errors.New("--hf_hub_log_args: pushing results or samples needs a Hugging Face token: set HF_TOKEN")
	}
	org := args.HubResultsOrg
	if org == "" {
		name, err := c.WhoAmI(ctx)
		if err != nil {
			return nil, fmt.Errorf("--hf_hub_log_args: no hub_results_org, and the token's owner is unknown: %w", err)
		}
		org = name
		slog.Warn("hub_results_org was not specified: results will be pushed to the token's owner", "org", org)
	}
	if args.HubRepoName != "" {
		slog.Warn("hub_repo_name was specified: details and results go to the same repository (lm-eval recommends details_repo_name and results_repo_name)")
	}
	d, r := args.Repos(org)
	return &HubPublisher{client: c, args: args, details: hub.Repo{Type: hub.Dataset, ID: d},
		results: hub.Repo{Type: hub.Dataset, ID: r}, modelName: modelName}, nil
}

// Repos are the repositories pushed to: the details (samples) and results
// ones.
func (p *HubPublisher) Repos() (details, results string) { return p.details.ID, p.results.ID }

// PushResults pushes the results file (push_results_to_hub) to
// <model_name>/<file name> of the results repository.
func (p *HubPublisher) PushResults(ctx context.Context, l Layout) error {
	if !p.args.PushResultsToHub {
		return nil
	}
	data, err := os.ReadFile(l.ResultsFile)
	if err != nil {
		return fmt.Errorf("push results: %w", err)
	}
	if err := p.client.CreateRepo(ctx, p.results, !p.args.PublicRepo); err != nil {
		return fmt.Errorf("push results: %w", err)
	}
	f := hub.CommitFile{Path: pyJoin(p.modelName, filepath.Base(l.ResultsFile)), Data: data}
	if _, err := p.client.Commit(ctx, p.results, "", "Adding aggregated results for "+p.modelName, []hub.CommitFile{f}); err != nil {
		return fmt.Errorf("push results: %w", err)
	}
	slog.Info("pushed the aggregated results to the Hugging Face Hub", "repo", p.results.ID, "path", f.Path)
	return nil
}

// PushSamples pushes, after each task's samples as lm-eval does (tasks in
// sorted order), the output folder to <model_name_sanitized>/ of the
// details repository (push_samples_to_hub): the results file, the
// samples files of the tasks so far, and whatever else the folder holds.
// The repository is gated first when asked to (a failure to gate is
// logged, not fatal, as in lm-eval). A task whose push fails does not stop
// the others; the errors are returned joined.
func (p *HubPublisher) PushSamples(ctx context.Context, l Layout, tasks []string) error {
	if !p.args.PushSamplesToHub {
		return nil
	}
	sorted := append([]string(nil), tasks...)
	sort.Strings(sorted)
	later := map[string]bool{}
	for _, t := range sorted {
		later[filepath.Base(l.SamplesFile(t))] = true
	}
	var errs []error
	for _, t := range sorted {
		delete(later, filepath.Base(l.SamplesFile(t)))
		if err := p.pushFolder(ctx, l, t, later); err != nil {
			errs = append(errs, fmt.Errorf("push samples of %s: %w", t, err))
		}
	}
	return errors.Join(errs...)
}

func (p *HubPublisher) pushFolder(ctx context.Context, l Layout, task string, skip map[string]bool) error {
	if err := p.client.CreateRepo(ctx, p.details, !p.args.PublicRepo); err != nil {
		return err
	}
	if p.args.Gated {
		if err := p.client.SetGated(ctx, p.details, "auto"); err != nil {
			slog.Warn("could not gate the repository", "repo", p.details.ID, "err", err)
		}
	}
	prefix := results.SanitizeModelName(p.modelName)
	var files []hub.CommitFile
	err := filepath.WalkDir(l.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(l.Dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" || rel == ".cache/huggingface" {
				return filepath.SkipDir
			}
			return nil
		}
		// A partial samples file is an unfinished run's, not this one's.
		if skip[rel] || !d.Type().IsRegular() || strings.HasSuffix(rel, PartialSuffix) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, hub.CommitFile{Path: pyJoin(prefix, rel), Data: data})
		return nil
	})
	if err != nil {
		return err
	}
	msg := "Adding samples results for " + task + " to " + p.modelName
	if _, err := p.client.Commit(ctx, p.details, "", msg, files); err != nil {
		return err
	}
	slog.Info("pushed sample results to the Hugging Face Hub", "task", task, "repo", p.details.ID, "files", len(files))
	return nil
}

// pyJoin is Python's os.path.join(a, b) for a relative b, which lm-eval
// uses for paths in the repository.
func pyJoin(a, b string) string {
	if a == "" || strings.HasSuffix(a, "/") {
		return a + b
	}
	return a + "/" + b
}
