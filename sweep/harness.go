package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// PPLTask is a rolling-perplexity task (lm-eval's loglikelihood_rolling
// output type, such as wikitext) as a source of documents for a sweep.
type PPLTask struct {
	cfg  *config.Config
	opts []harness.Option
	// Docs are the texts the task scores, in the harness's request order.
	Docs []string
}

// buildPPL builds cfg's tasks with the harness's plan and build stages;
// they must ask for rolling log-likelihoods only.
func buildPPL(ctx context.Context, cfg *config.Config, opts []harness.Option) (*harness.Workload, error) {
	p, err := harness.NewPlan(cfg, opts...)
	if err != nil {
		return nil, err
	}
	b, err := p.Build(ctx, nil)
	if err != nil {
		return nil, err
	}
	if r := b.Requests(); len(r.Loglikelihood) > 0 || len(r.Generate) > 0 {
		return nil, errors.New("not a rolling-perplexity task (it asks for log-likelihoods or generations)")
	}
	return b, nil
}

// LoadPPLTask builds cfg's single task with the harness (documents,
// --limit, the task's doc_to_target) and keeps the texts of its rolling
// requests. opts reach the harness (a registry or a document loader).
func LoadPPLTask(ctx context.Context, cfg *config.Config, opts ...harness.Option) (*PPLTask, error) {
	b, err := buildPPL(ctx, cfg, opts)
	if err != nil {
		return nil, fmt.Errorf("sweep: perplexity task: %w", err)
	}
	reqs := b.Requests().Rolling
	if len(reqs) == 0 {
		return nil, errors.New("sweep: the perplexity task produced no documents")
	}
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.Text
	}
	return &PPLTask{cfg: cfg, opts: opts, Docs: texts}, nil
}

// Metrics returns the task's own metrics (word_perplexity, byte_perplexity,
// bits_per_byte as its process_results defines them) for per-document
// log-likelihoods given in Docs order, by building the task again and
// scoring those answers with the harness's score and report stages.
func (p *PPLTask) Metrics(ctx context.Context, logliks []float64) (map[string]float64, error) {
	if len(logliks) != len(p.Docs) {
		return nil, fmt.Errorf("sweep: %d log-likelihoods for %d documents", len(logliks), len(p.Docs))
	}
	ll := make(map[string]float64, len(p.Docs))
	for i, d := range p.Docs {
		ll[d] = logliks[i]
	}
	res, err := p.score(ctx, ll)
	if err != nil {
		return nil, fmt.Errorf("sweep: perplexity task metrics: %w", err)
	}
	out := map[string]float64{}
	for _, name := range res.Results.Keys() {
		entry, _ := res.Results.Get(name)
		for _, key := range entry.Keys() {
			metric, _, ok := strings.Cut(key, ",")
			if !ok || strings.HasSuffix(metric, "_stderr") {
				continue
			}
			if v, ok := number(entry, key); ok {
				out[key] = v
			}
		}
	}
	return out, nil
}

// score answers the task's rolling requests with the log-likelihoods of
// their texts and reports the task's results.
func (p *PPLTask) score(ctx context.Context, ll map[string]float64) (*results.Results, error) {
	b, err := buildPPL(ctx, p.cfg, p.opts)
	if err != nil {
		return nil, err
	}
	sc, err := b.Score()
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	for i, q := range b.Requests().Rolling {
		v, ok := ll[q.Text]
		if !ok {
			return nil, fmt.Errorf("no log-likelihood for document %.40q", q.Text)
		}
		if err := sc.Rolling(ctx, i, model.RollingResult{LogProb: v}); err != nil {
			return nil, err
		}
	}
	return sc.Report(ctx)
}

// HarnessTasks evaluates Config's tasks with the harness on each model
// (through the llama backend around the already loaded model).
type HarnessTasks struct {
	Config  *config.Config
	Options []harness.Option

	keyOnce sync.Once
	key     string
}

// Key identifies the tasks and the settings that change their scores, and
// fingerprints what the tasks are now: an edited task YAML or a changed
// dataset must be evaluated afresh, not served from the store under the
// same task names.
func (h *HarnessTasks) Key() string {
	h.keyOnce.Do(func() { h.key = h.settingsKey() + "\x00" + h.fingerprint() })
	return h.key
}

// fingerprint hashes what the harness's plan and build stages make of
// the tasks: their configs (prompts, targets, metrics and filters as
// written), every document with its target, and every request, so an
// edited task or a changed dataset changes it. A task that cannot be
// built fails the real run too, which then stores nothing.
func (h *HarnessTasks) fingerprint() string {
	ctx := context.Background()
	p, err := harness.NewPlan(h.Config, h.Options...)
	if err != nil {
		return "unknown"
	}
	b, err := p.Build(ctx, nil)
	if err != nil {
		return "unknown"
	}
	sum := sha256.New()
	write := func(v any) {
		js, err := json.Marshal(v)
		if err != nil {
			// fmt prints maps sorted: still a fingerprint of the content.
			js = fmt.Appendf(nil, "%v", v)
		}
		fmt.Fprintf(sum, "%d:%s", len(js), js)
	}
	write(b.Configs())
	for _, t := range b.Tasks() {
		write(t.Name)
		for _, d := range t.Docs {
			write([]any{d.ID, d.Doc, d.Target, d.Choices})
		}
	}
	r := b.Requests()
	write(r.Loglikelihood)
	write(r.Rolling)
	write(r.Generate)
	return hex.EncodeToString(sum.Sum(nil))[:32]
}

func (h *HarnessTasks) settingsKey() string {
	b, _ := json.Marshal(struct {
		Tasks   []config.TaskSpec
		Shots   *int
		Limit   config.Limit
		Seeds   config.Seeds
		Gen     map[string]any
		Chat    config.ChatTemplate
		System  string
		Multi   bool
		Include []string
	}{h.Config.Tasks, h.Config.NumFewshot, h.Config.Limit, h.Config.Seeds, h.Config.GenKwargs,
		h.Config.ChatTemplate, h.Config.SystemInstruction, h.Config.FewshotAsMultiturn, h.Config.IncludePaths})
	return string(b)
}

type sampleSink struct {
	mu     sync.Mutex
	byTask map[string][]*results.Sample
}

type sinkWriter struct {
	s    *sampleSink
	task string
}

func (w sinkWriter) Write(v any) error {
	s, ok := v.(*results.Sample)
	if !ok {
		return nil
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.byTask[w.task] = append(w.s.byTask[w.task], s)
	return nil
}

func (sinkWriter) Close() error { return nil }

// Run evaluates the tasks on m and returns every numeric metric of every
// task with its per-document values; with logSamples also the results
// object and every task's samples in lm-eval's formats.
func (h *HarnessTasks) Run(ctx context.Context, m *engine.Model, logSamples bool) (*TaskRun, error) {
	sink := &sampleSink{byTask: map[string][]*results.Sample{}}
	opts := append([]harness.Option{harness.WithSamples(func(name string) (harness.SampleWriter, error) {
		return sinkWriter{sink, name}, nil
	})}, h.Options...)
	start := time.Now()
	p, err := harness.NewPlan(h.Config, opts...)
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	res, err := p.Evaluate(ctx, llama.Wrap(m))
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	run := &TaskRun{}
	if logSamples {
		if run.Files, err = runFiles(res, sink, start); err != nil {
			return nil, fmt.Errorf("tasks: %w", err)
		}
	}
	var out []TaskScore
	for _, name := range res.Results.Keys() {
		entry, _ := res.Results.Get(name)
		samples := sink.byTask[name]
		for _, key := range entry.Keys() {
			metric, filter, ok := strings.Cut(key, ",")
			if !ok || strings.HasSuffix(metric, "_stderr") {
				continue
			}
			v, ok := number(entry, key)
			if !ok {
				continue
			}
			s := TaskScore{Task: name, Metric: key, Value: v}
			if se, ok := number(entry, metric+"_stderr,"+filter); ok {
				s.Stderr = se
			}
			s.PerDoc, s.Binary = perDoc(samples, metric, filter)
			out = append(out, s)
		}
	}
	run.Scores = out
	return run, nil
}

// runFiles keeps a task run's results and samples as lm-eval writes them
// (samples in lm-eval's order: by filter, then doc_id).
func runFiles(res *results.Results, sink *sampleSink, start time.Time) (*RunFiles, error) {
	js, err := res.JSON()
	if err != nil {
		return nil, err
	}
	f := &RunFiles{Start: start, Results: js, Samples: map[string][]byte{}}
	for task, samples := range sink.byTask {
		filters := map[string]int{}
		for _, s := range samples {
			if _, ok := filters[s.Filter]; !ok {
				filters[s.Filter] = len(filters)
			}
		}
		sorted := slices.Clone(samples)
		slices.SortStableFunc(sorted, func(a, b *results.Sample) int {
			if fa, fb := filters[a.Filter], filters[b.Filter]; fa != fb {
				return fa - fb
			}
			return a.DocID - b.DocID
		})
		f.Samples[task] = results.WriteSamples(sorted)
	}
	return f, nil
}

func number(e *results.Entry, key string) (float64, bool) {
	v, ok := e.Get(key)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case results.Float:
		return float64(x), !math.IsNaN(float64(x))
	case int:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// perDoc collects a metric's per-document values in document order; nil
// when some document lacks a numeric value (aggregates such as perplexity
// over several fields cannot be paired per document).
func perDoc(samples []*results.Sample, metric, filter string) ([]float64, bool) {
	byDoc := map[int]float64{}
	maxID := -1
	for _, s := range samples {
		if s.Filter != filter {
			continue
		}
		v, ok := s.Metrics.Get(metric)
		if !ok {
			return nil, false
		}
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case results.Float:
			f = float64(x)
		case int:
			f = float64(x)
		case bool:
			if x {
				f = 1
			}
		default:
			return nil, false
		}
		byDoc[s.DocID] = f
		maxID = max(maxID, s.DocID)
	}
	if len(byDoc) == 0 || len(byDoc) != maxID+1 {
		return nil, false
	}
	out := make([]float64, maxID+1)
	binary := true
	for id, v := range byDoc {
		out[id] = v
		if v != 0 && v != 1 {
			binary = false
		}
	}
	return out, binary
}
