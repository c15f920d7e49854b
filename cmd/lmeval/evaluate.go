package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/tasktree"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/internal/output"
)

// evaluate runs plan (cfg's tasks) on lm (Plan.Evaluate), prints the
// results table on stdout and writes the results JSON and, with
// --log_samples, the samples files under --output_path.
// tree, when not nil, is the lm-eval task tree the tasks came from; lp,
// when not nil, splits the tables by --language.
func evaluate(ctx context.Context, c *cli.Context, cfg *config.Config, plan *harness.Plan, lm model.LM, tree *tasktree.Tree, lp *langPlan) error {
	start := time.Now()
	var opts []harness.Option
	var layout output.Layout
	var samples openedSamples
	if cfg.OutputPath != "" {
		layout = output.NewLayout(cfg.OutputPath, results.ModelName(cfg.ModelArgs), start)
		if cfg.LogSamples || cfg.PredictOnly {
			opts = append(opts, harness.WithSamples(func(name string) (harness.SampleWriter, error) {
				return samples.open(layout, name)
			}))
		}
	} else if cfg.LogSamples || cfg.PredictOnly {
		slog.Warn("--log_samples without --output_path: samples are not saved")
	}
	if cfg.CacheRequests != config.CacheRequestsOff {
		// Built requests go to the response cache's file when there is
		// one, else to the default requests cache (docs/cache.md).
		db := responseCache(cfg, lm)
		if db == nil {
			path := cfg.UseCache
			if path == "" {
				path = cache.DefaultPath("requests.sqlite")
			}
			var err error
			if db, err = cache.Open(path); err != nil {
				return fmt.Errorf("--cache_requests: %w", err)
			}
			defer db.Close()
		}
		opts = append(opts, harness.WithRequestCache(db))
	}
	if c.App.ErrWriter != nil {
		opts = append(opts, harness.WithWriteOut(c.App.ErrWriter))
	}

	var publisher *output.HubPublisher
	if cfg.HFHubLogArgs.Push() {
		// As lm-eval's tracker: the token and the repositories' owner are
		// settled before the run.
		token := os.Getenv("HF_TOKEN")
		var err error
		publisher, err = output.NewHubPublisher(ctx, hub.New(hub.Options{Token: token}), token, cfg.HFHubLogArgs, results.ModelName(cfg.ModelArgs))
		if err != nil {
			return err
		}
		if cfg.HFHubLogArgs.PushSamplesToHub && !cfg.LogSamples {
			slog.Warn("pushing samples to the Hub requires --log_samples to be set")
		}
	}

	res, err := plan.Evaluate(ctx, lm, opts...)
	if err != nil {
		return samples.partial(err)
	}
	if res.LMEval != nil {
		res.LMEval.Version = Version
		if tree != nil {
			res.LMEval.TasksTree = tree
		}
	}
	// Nothing computed is lost: a file that cannot be written is
	// reported after the table, and the results go to a fallback file.
	var errs []error
	if err := samples.commit(); err != nil {
		errs = append(errs, err)
	}
	if cfg.OutputPath != "" {
		if err := layout.WriteResults(res); err != nil {
			errs = append(errs, resultsNotWritten(cfg.OutputPath, layout, res, err))
		} else {
			slog.Info("results written", "path", layout.ResultsFile)
			if publisher != nil {
				pushToHub(ctx, publisher, layout, cfg, res)
			}
		}
	}
	if cfg.SummaryPath != "" {
		if err := writeSummary(c, cfg.SummaryPath, res); err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.ShowConfig {
		data, err := output.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.App.Writer, string(data))
	}
	var shots any
	if cfg.NumFewshot != nil {
		shots = *cfg.NumFewshot
	}
	fmt.Fprintln(c.App.Writer, res.Header(shots))
	if lp != nil {
		lp.report(c.App.Writer, res)
		return nil
	}
	fmt.Fprint(c.App.Writer, res.Tables())
	return errors.Join(errs...)
}

// resultsNotWritten saves the results to a fallback file when the results
// file could not be written, and says where they are.
func resultsNotWritten(outputPath string, layout output.Layout, res *results.Results, err error) error {
	fallback, ferr := layout.WriteFallback(res)
	if ferr != nil {
		return fmt.Errorf("--output_path %s: %w; saving them to the temporary directory failed too: %v", outputPath, err, ferr)
	}
	return fmt.Errorf("--output_path %s: %w; the results were saved to %s instead", outputPath, err, fallback)
}

// openedSamples are the samples files of a run, committed (given their
// final names) once it completes.
type openedSamples struct {
	mu      sync.Mutex
	writers []*output.SamplesWriter
}

func (o *openedSamples) open(layout output.Layout, task string) (*output.SamplesWriter, error) {
	w, err := layout.OpenSamples(task)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writers = append(o.writers, w)
	return w, nil
}

// commit renames the partial files to the samples files.
func (o *openedSamples) commit() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	var errs []error
	for _, w := range o.writers {
		errs = append(errs, w.Commit())
	}
	return errors.Join(errs...)
}

// partial wraps the error of a run that did not complete with where its
// partial samples files are.
func (o *openedSamples) partial(err error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.writers) == 0 {
		return err
	}
	files := make([]string, len(o.writers))
	for i, w := range o.writers {
		files[i] = w.Path()
	}
	return &partialSamplesError{err: err, files: files}
}

// partialSamplesError is the error of a run that stopped with its samples
// files partial (named with output.PartialSuffix).
type partialSamplesError struct {
	err   error
	files []string
}

func (e *partialSamplesError) Error() string {
	return fmt.Sprintf("%v (%s)", e.err, e.where())
}

func (e *partialSamplesError) Unwrap() error { return e.err }

// where says where the partial samples are.
func (e *partialSamplesError) where() string {
	if len(e.files) == 1 {
		return "the samples of the documents done are in " + e.files[0]
	}
	return fmt.Sprintf("the samples of the documents done are in %s (%d files *%s)", filepath.Dir(e.files[0]), len(e.files), output.PartialSuffix)
}

// pushToHub publishes the files just written (--hf_hub_log_args). As in
// lm-eval, a failed push is reported and the run goes on: the files stay
// where they were written.
func pushToHub(ctx context.Context, p *output.HubPublisher, layout output.Layout, cfg *config.Config, res *results.Results) {
	if err := p.PushResults(ctx, layout); err != nil {
		slog.Warn("could not push the results to the Hugging Face Hub; the results file is kept", "path", layout.ResultsFile, "err", err)
	}
	if !cfg.LogSamples {
		return
	}
	tasks := make([]string, 0, len(res.Configs))
	for name := range res.Configs {
		tasks = append(tasks, name)
	}
	if err := p.PushSamples(ctx, layout, tasks); err != nil {
		slog.Warn("could not push samples to the Hugging Face Hub; the samples files are kept", "dir", layout.Dir, "err", err)
	}
	slog.Info("lm-eval also rewrites the details repository's dataset card (README.md); lmeval does not")
}

// writeSummary writes the flat {task: {"metric,filter": value}} view of the
// results (numbers only) for scripts: to a file, or to stdout for "-".
func writeSummary(c *cli.Context, path string, res *results.Results) error {
	data, err := output.Marshal(res.Summary())
	if err != nil {
		return err
	}
	if path == "-" {
		_, err := c.App.Writer.Write(data)
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return fmt.Errorf("--summary_path: %w", err)
		}
	}
	if err := os.WriteFile(path, data, 0o666); err != nil {
		return fmt.Errorf("--summary_path: %w", err)
	}
	return nil
}

// responseCache is the --use_cache database lm answers from (openModel
// opened it once for the run), or nil.
func responseCache(cfg *config.Config, lm model.LM) *cache.Cache {
	if c, ok := lm.(*cache.CachingLM); ok && cfg.UseCache != "" && c.Cache().Path() == cfg.UseCache {
		return c.Cache()
	}
	return nil
}
