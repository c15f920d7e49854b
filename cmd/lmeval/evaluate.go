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
	out, err := openOutputs(ctx, c, cfg, lm, time.Now())
	if err != nil {
		return err
	}
	defer out.close()
	res, err := plan.Evaluate(ctx, lm, out.opts...)
	if err != nil {
		return out.samples.partial(err)
	}
	return out.finish(ctx, c, cfg, res, tree, lp)
}

// outputs are where a run's results go: the samples writers, the results
// layout, the Hub publisher, and the evaluation options that go with
// them (samples, the request cache, --write_out).
type outputs struct {
	opts      []harness.Option
	layout    output.Layout
	samples   openedSamples
	publisher *output.HubPublisher
	close     func()
}

// openOutputs prepares the outputs of a run started at start.
func openOutputs(ctx context.Context, c *cli.Context, cfg *config.Config, lm model.LM, start time.Time) (*outputs, error) {
	opts, closeCache, err := runOptions(c, cfg, lm)
	if err != nil {
		return nil, err
	}
	out := &outputs{opts: opts, close: closeCache}
	if cfg.OutputPath != "" {
		out.layout = output.NewLayout(cfg.OutputPath, results.ModelName(cfg.ModelArgs), start)
		if cfg.LogSamples || cfg.PredictOnly {
			out.opts = append(out.opts, harness.WithSamples(func(name string) (harness.SampleWriter, error) {
				return out.samples.open(out.layout, name)
			}))
		}
	} else if cfg.LogSamples || cfg.PredictOnly {
		slog.Warn("--log_samples without --output_path: samples are not saved")
	}
	if cfg.HFHubLogArgs.Push() {
		// As lm-eval's tracker: the token and the repositories' owner are
		// settled before the run.
		token := os.Getenv("HF_TOKEN")
		out.publisher, err = output.NewHubPublisher(ctx, hub.New(hub.Options{Token: token}), token, cfg.HFHubLogArgs, results.ModelName(cfg.ModelArgs))
		if err != nil {
			out.close()
			return nil, err
		}
		if cfg.HFHubLogArgs.PushSamplesToHub && !cfg.LogSamples {
			slog.Warn("pushing samples to the Hub requires --log_samples to be set")
		}
	}
	return out, nil
}

// runOptions are the evaluation options every run (and shard) has: the
// request cache (--cache_requests) and where --write_out prints. The
// returned function closes the request cache when the run opened one.
func runOptions(c *cli.Context, cfg *config.Config, lm model.LM) ([]harness.Option, func(), error) {
	var opts []harness.Option
	closeCache := func() {}
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
				return nil, nil, fmt.Errorf("--cache_requests: %w", err)
			}
			closeCache = func() { db.Close() }
		}
		opts = append(opts, harness.WithRequestCache(db))
	}
	if c.App.ErrWriter != nil {
		opts = append(opts, harness.WithWriteOut(c.App.ErrWriter))
	}
	return opts, closeCache, nil
}

// finish completes a run: the results file, samples, summary, Hub push,
// and the tables on stdout (by language with lp).
func (o *outputs) finish(ctx context.Context, c *cli.Context, cfg *config.Config, res *results.Results, tree *tasktree.Tree, lp *langPlan) error {
	if res.LMEval != nil {
		res.LMEval.Version = Version
		if tree != nil {
			res.LMEval.TasksTree = tree
		}
	}
	// Nothing computed is lost: a file that cannot be written is
	// reported after the table, and the results go to a fallback file.
	var errs []error
	if err := o.samples.commit(); err != nil {
		errs = append(errs, err)
	}
	if cfg.OutputPath != "" {
		if err := o.layout.WriteResults(res); err != nil {
			errs = append(errs, resultsNotWritten(cfg.OutputPath, o.layout, res, err))
		} else {
			slog.Info("results written", "path", o.layout.ResultsFile)
			if o.publisher != nil {
				pushToHub(ctx, o.publisher, o.layout, cfg, res)
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
	} else {
		fmt.Fprint(c.App.Writer, res.Tables())
	}
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
