package metrics

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lmeval/lmeval/python/pyrand"
)

// DefaultBootstrapIters is lm-eval's default --bootstrap_iters.
const DefaultBootstrapIters = 100000

// SampleStddev is the standard deviation with Bessel's correction.
func SampleStddev(xs []float64) float64 {
	mu := Mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - mu) * (x - mu)
	}
	return math.Sqrt(s / float64(len(xs)-1))
}

// MeanStderr is lm-eval's mean_stderr: sample stddev / sqrt(n).
func MeanStderr(xs []float64) float64 {
	return SampleStddev(xs) / math.Sqrt(float64(len(xs)))
}

// Bootstrap configures bootstrap standard errors.
type Bootstrap struct {
	// Iters is the number of resamples; lm-eval runs Iters/chunk whole
	// chunks of min(1000, Iters) resamples each.
	Iters int
	// Workers bounds the goroutines (0: GOMAXPROCS). Chunks are
	// independent, so the result does not depend on it.
	Workers int
}

// Stderr computes the standard error of a resampled statistic exactly as
// lm-eval's bootstrap_stderr does: Iters/chunk chunks of chunk =
// min(1000, Iters) resamples, chunk i drawn by random.Random(i).choices(xs,
// k=len(xs)) (one floor(random()*n) per draw, CPython's generator via
// pyrand), the statistic of every resample in chunk order, then their
// sample standard deviation. It is deterministic: lm-eval seeds chunk i
// with i whatever its seeds, and so does this.
func (b Bootstrap) Stderr(ctx context.Context, agg *Aggregation, items []any) (float64, error) {
	n := len(items)
	if n == 0 {
		return 0, fmt.Errorf("bootstrap %s: no values", agg.Name)
	}
	chunk := min(1000, b.Iters)
	if chunk <= 0 {
		return 0, fmt.Errorf("bootstrap %s: bootstrap_iters must be positive", agg.Name)
	}
	chunks := b.Iters / chunk
	var stat func([]int) float64
	var statErr atomic.Pointer[error]
	if agg.Prepare != nil {
		var err error
		if stat, err = agg.Prepare(items); err != nil {
			return 0, err
		}
	} else {
		// Aggregations registered without Prepare: resample the values.
		if _, err := agg.Apply(ctx, items); err != nil {
			return 0, err
		}
		pool := sync.Pool{New: func() any { return make([]any, n) }}
		stat = func(idx []int) float64 {
			s := pool.Get().([]any)
			defer pool.Put(s)
			for k, i := range idx {
				s[k] = items[i]
			}
			v, err := agg.Apply(ctx, s)
			if err != nil {
				statErr.CompareAndSwap(nil, &err)
			}
			return v
		}
	}
	res := make([]float64, chunks*chunk)
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx := make([]int, n)
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks || ctx.Err() != nil {
					return
				}
				r := pyrand.New(int64(c))
				for it := range chunk {
					Choices(r, idx, n)
					res[c*chunk+it] = stat(idx)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if e := statErr.Load(); e != nil {
		return 0, fmt.Errorf("bootstrap %s: %w", agg.Name, *e)
	}
	return SampleStddev(res), nil
}

// Choices fills idx with the indices random.choices(range(n), k=len(idx))
// draws from r: floor(random() * n) each.
func Choices(r *pyrand.Rand, idx []int, n int) {
	fn := float64(n)
	for k := range idx {
		idx[k] = int(r.Random() * fn)
	}
}

// StderrResult is a standard error or its absence ("N/A" in results).
type StderrResult struct {
	Value float64
	OK    bool
}

// StderrFor is lm-eval's stderr for one metric of one task
// (calculate_aggregate_metric with stderr_for_metric): none when iters is
// 0 or there is a single value; the closed form for mean; a bootstrap for
// median, nanmean, perplexity, f1, matthews_corrcoef, bleu, chrf and ter
// (bleu, chrf and ter with at most 100 resamples, as lm-eval limits them);
// none for other aggregations.
func StderrFor(ctx context.Context, metric, aggregation string, items []any, b Bootstrap) (StderrResult, error) {
	if b.Iters <= 0 || len(items) <= 1 {
		return StderrResult{}, nil
	}
	agg, ok := LookupAggregation(aggregation)
	if !ok {
		return StderrResult{}, fmt.Errorf("unknown aggregation %q", aggregation)
	}
	switch {
	case aggregation == "mean":
		xs, err := floats(items)
		if err != nil {
			return StderrResult{}, fmt.Errorf("metric %s: %w", metric, err)
		}
		return StderrResult{MeanStderr(xs), true}, nil
	case aggregation == "acc_all":
		xs, err := itemsOf[AccAllItem]("acc_all", items)
		if err != nil {
			return StderrResult{}, err
		}
		return StderrResult{AccAllStderr(xs), true}, nil
	case agg.Bootstrap:
		if metric == "bleu" || metric == "chrf" || metric == "ter" {
			b.Iters = min(b.Iters, 100)
		}
		v, err := b.Stderr(ctx, agg, items)
		if err != nil {
			return StderrResult{}, fmt.Errorf("metric %s: %w", metric, err)
		}
		return StderrResult{v, true}, nil
	}
	return StderrResult{}, nil
}

// Subtask is one member's result for a group's metric.
type Subtask struct {
	Value  float64
	Stderr StderrResult
	Size   int // documents evaluated
}

// AggregateSubtasks is lm-eval's aggregate_subtask_metrics: the mean of the
// subtasks' values weighted by their sizes, or unweighted (macro).
func AggregateSubtasks(values []float64, sizes []int, weightBySize bool) float64 {
	num, den := 0.0, 0.0
	for i, v := range values {
		w := 1.0
		if weightBySize {
			w = float64(sizes[i])
		}
		num += v * w
		den += w
	}
	return num / den
}

// PooledStderr is lm-eval's pooled_sample_stderr: the pooled variance of
// the subtasks, sqrt(sum((n_i-1) * se_i^2 * n_i) / (N - k) / N).
func PooledStderr(stderrs []float64, sizes []int) float64 {
	num, total := 0.0, 0
	for i, se := range stderrs {
		num += float64(sizes[i]-1) * (se * se) * float64(sizes[i]) // Python's order
		total += sizes[i]
	}
	v := num / float64(total-len(sizes))
	return math.Sqrt(v / float64(total))
}

// Group aggregates one metric over a group's subtasks as lm-eval's
// consolidate_group_results does for an aggregate_metric_list entry with
// aggregation "mean": the (weighted) mean, the pooled stderr ("N/A" when any
// subtask's is), and the total size.
func Group(subs []Subtask, weightBySize bool) (value float64, stderr StderrResult, size int) {
	vals := make([]float64, len(subs))
	sizes := make([]int, len(subs))
	ses := make([]float64, len(subs))
	allSE := true
	for i, s := range subs {
		vals[i], sizes[i], ses[i] = s.Value, s.Size, s.Stderr.Value
		allSE = allSE && s.Stderr.OK
		size += s.Size
	}
	value = AggregateSubtasks(vals, sizes, weightBySize)
	if allSE {
		stderr = StderrResult{PooledStderr(ses, sizes), true}
	}
	return value, stderr, size
}

// Compute aggregates one metric's per-document values and its standard
// error, as lm-eval reports them under "metric,filter" and
// "metric_stderr,filter".
func Compute(ctx context.Context, metric, aggregation string, items []any, b Bootstrap) (float64, StderrResult, error) {
	v, err := Aggregate(ctx, aggregation, items)
	if err != nil {
		return 0, StderrResult{}, fmt.Errorf("metric %s: %w", metric, err)
	}
	se, err := StderrFor(ctx, metric, aggregation, items, b)
	return v, se, err
}
