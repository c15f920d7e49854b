// Package harness is the evaluator: it turns a run's configuration into
// lm-evaluation-harness results, as lm-eval's simple_evaluate and evaluate
// do. It resolves tasks and groups, builds every task's requests, sends
// each request type to the model as one deduplicated stream, maps the
// answers back, applies the tasks' filter pipelines, scores every document,
// aggregates with standard errors, aggregates groups, and fills the
// results object; per-document samples are streamed as documents complete.
package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/codeexec"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
	"github.com/lmeval/lmeval/tasks"
)

// SampleWriter receives one task's per-document sample records
// (*results.Sample) as documents complete; output.SamplesWriter is one.
type SampleWriter interface {
	Write(sample any) error
	Close() error
}

// Option adjusts an evaluation.
type Option func(*options)

type options struct {
	registry    *task.Registry
	loader      task.DocLoader
	columns     task.ColumnLoader
	openSamples func(taskName string) (SampleWriter, error)
	writeOut    io.Writer
	reqCache    *cache.Cache
	now         func() time.Time
	chunk       int
}

// WithRegistry resolves task names in r instead of the built-in tasks plus
// cfg.IncludePaths.
func WithRegistry(r *task.Registry) Option { return func(o *options) { o.registry = r } }

// WithLoader loads documents with l instead of the dataset package. Tasks
// build concurrently, so l must be safe for concurrent use.
func WithLoader(l task.DocLoader) Option { return func(o *options) { o.loader = l } }

// WithColumns gives the column order of WithLoader's datasets, which the
// samples' documents keep (as lm-eval's do); without it their keys are
// sorted. The default loader has its own.
func WithColumns(c task.ColumnLoader) Option { return func(o *options) { o.columns = c } }

// WithSamples streams each task's samples to the writer open returns for
// it (--log_samples); the writers are closed when Evaluate returns.
func WithSamples(open func(taskName string) (SampleWriter, error)) Option {
	return func(o *options) { o.openSamples = open }
}

// WithWriteOut sets where --write_out prints prompts (default stderr).
func WithWriteOut(w io.Writer) Option { return func(o *options) { o.writeOut = w } }

// WithRequestCache keeps built requests in c for --cache_requests.
func WithRequestCache(c *cache.Cache) Option { return func(o *options) { o.reqCache = c } }

// WithChunkSize sets how many unique requests go to the model per call
// (0: automatic). Smaller chunks report progress and complete documents
// sooner; larger ones let the engine batch and share prefixes more.
func WithChunkSize(n int) Option { return func(o *options) { o.chunk = n } }

// NewRegistry indexes the built-in tasks and then each include path (later
// trees take precedence, as in lm-eval), with --metadata applied.
func NewRegistry(include []string, metadata map[string]any) (*task.Registry, error) {
	return newRegistry(include, metadata, "")
}

// newRegistry is NewRegistry caching directory indexes in cacheDir ("":
// none).
func newRegistry(include []string, metadata map[string]any, cacheDir string) (*task.Registry, error) {
	r := task.NewRegistry()
	r.CacheDir = cacheDir
	if err := r.AddFS("", tasks.FS()); err != nil {
		return nil, fmt.Errorf("built-in tasks: %w", err)
	}
	for _, dir := range include {
		if err := r.AddDir(dir); err != nil {
			return nil, fmt.Errorf("--include_path %s: %w", dir, err)
		}
	}
	if len(metadata) > 0 {
		r.Metadata = metadata
	}
	return r, nil
}

// DatasetLoader is the default DocLoader, and its datasets' column order:
// datasets from local files or the Hugging Face Hub (HF_HOME, HF_TOKEN,
// HF_ENDPOINT, HF_HUB_OFFLINE).
func DatasetLoader(opts dataset.Options) (task.DocLoader, task.ColumnLoader) {
	l := dataset.NewLoader(opts)
	docs := func(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		return l.Load(ctx, dataset.Spec{Path: spec.Path, Name: spec.Name, Kwargs: spec.Kwargs}, split)
	}
	cols := func(ctx context.Context, spec task.DatasetSpec, split string) (*pyval.Columns, error) {
		return l.Columns(ctx, dataset.Spec{Path: spec.Path, Name: spec.Name, Kwargs: spec.Kwargs}, split)
	}
	return docs, cols
}

// Evaluate runs cfg's tasks on lm and returns the results (lm-eval's
// simple_evaluate). The context carries the progress display
// (progress.NewContext) and cancels the run; a cancelled run returns an
// error wrapping context.Canceled, with the samples written so far flushed.
func Evaluate(ctx context.Context, cfg *config.Config, lm model.LM, opts ...Option) (*results.Results, error) {
	o := options{now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	if len(cfg.Tasks) == 0 {
		return nil, errors.New("no tasks specified, or no tasks found: give --tasks (see 'lmeval ls tasks')")
	}
	start := o.now()
	if o.registry == nil {
		r, err := NewRegistry(cfg.IncludePaths, cfg.Metadata)
		if err != nil {
			return nil, err
		}
		o.registry = r
	}
	if o.loader == nil {
		dopts := dataset.Options{}
		if progress.FromContext(ctx).Enabled() {
			dopts.Progress = os.Stderr
		}
		o.loader, o.columns = DatasetLoader(dopts)
	}
	if o.writeOut == nil {
		o.writeOut = os.Stderr
	}
	if len(cfg.GenKwargs) > 0 {
		slog.Warn("generation_kwargs given on the command line update the tasks' own; set do_sample=true for non-greedy decoding")
	}

	// Programs the model writes run only with the user's consent.
	codeexec.Confirm(cfg.ConfirmRunUnsafeCode)
	ev := &evaluation{cfg: cfg, lm: lm, opts: o, ctx: ctx}
	var err error
	if ev.chat, err = parseChatOptions(cfg.ModelArgs); err != nil {
		return nil, err
	}
	if err := ev.chat.resolveThinkToken(lm); err != nil {
		return nil, err
	}
	if err := ev.resolve(); err != nil {
		return nil, err
	}
	defer ev.closeSamples()
	if err := ev.build(ctx); err != nil {
		return nil, err
	}
	if err := ev.openSamples(); err != nil {
		return nil, err
	}
	modelStart := time.Now()
	if err := ev.run(ctx); err != nil {
		return nil, err
	}
	modelTime := time.Since(modelStart)
	if err := ev.closeSamples(); err != nil {
		return nil, err
	}
	res, err := ev.report(ctx)
	if err != nil {
		return nil, err
	}
	ev.fillConfig(res, start, modelTime)
	return res, nil
}
