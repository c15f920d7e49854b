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
	"io"
	"io/fs"
	"time"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
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
	builtin     fs.FS
	loader      task.DocLoader
	columns     task.ColumnLoader
	openSamples func(taskName string) (SampleWriter, error)
	writeOut    io.Writer
	reqCache    *cache.Cache
	now         func() time.Time
	chunk       int
	shard       *shardOption
}

// WithRegistry resolves task names in r instead of the built-in tasks plus
// cfg.IncludePaths.
func WithRegistry(r *task.Registry) Option { return func(o *options) { o.registry = r } }

// WithBuiltinTasks sets the built-in task tree that task names resolve in
// before cfg.IncludePaths when no WithRegistry is given: lmeval's own
// benchmarks are benchmarks.FS(). Without it only the include paths are
// indexed. (The harness does not import the benchmarks, as database/sql
// does not import its drivers.)
func WithBuiltinTasks(fsys fs.FS) Option { return func(o *options) { o.builtin = fsys } }

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
