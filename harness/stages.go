package harness

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyrand"
)

// The evaluator's stages, in order (docs/evaluate.md):
//
//	plan   NewPlan         resolve tasks and groups, fail fast (no model, no data)
//	data   Plan.LoadData   (optional) every task's documents, still no model
//	build  Plan.Build      a Workload: documents, prompts, requests (Workload.Requests)
//	score  Workload.Score  a Scorer: filters and metrics, as answers arrive
//	run    Workload.Run    answers from an LM, handed to the Scorer
//	report Scorer.Report   aggregation, groups, the results object
//
// Evaluate is their composition. Each stage holds what it needs and is
// used once: a Plan builds once, a Workload is scored once. Contexts are
// passed to the calls that do the work, never kept. What lm-eval keeps in
// its Python process for a run (the random and numpy module generators'
// seeds and draws, the consent to run the model's code) belongs to the
// plan, so two evaluations in one process do not interfere.

// Plan is a run's tasks and groups resolved from its configuration: every
// --tasks entry names tasks that exist and parse, unsafe code is
// permitted, the chat model_args are valid. It loads no documents and
// needs no model, so a caller can check a run before loading a model.
type Plan struct {
	cfg  *config.Config
	opts options
	// chat are the chat model_args (chat_template_args, enable_thinking,
	// think_end_token).
	chat  chatOptions
	roots []*node    // the selection, in --tasks order
	runs  []*taskRun // every task, depth first
	// random is Python's module-level generator as lm-eval's process has
	// it for this run (random.seed of --seed's first value).
	random *pyrand.Module
	// start is when the evaluation began (the results' date).
	start time.Time
	built bool
}

// NewPlan resolves cfg's tasks in the options' registry (WithRegistry;
// else the built-in tasks plus cfg.IncludePaths). The other options may
// be given here or to Build.
func NewPlan(cfg *config.Config, opts ...Option) (*Plan, error) {
	o := options{now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	if len(cfg.Tasks) == 0 {
		return nil, errors.New("no tasks specified, or no tasks found: give --tasks (see 'lmeval ls tasks')")
	}
	if o.registry == nil {
		r, _, err := NewRegistry(context.Background(), RegistryOptions{
			Builtin: o.builtin, Include: cfg.IncludePaths, Metadata: cfg.Metadata, NoTree: true,
		})
		if err != nil {
			return nil, err
		}
		o.registry = r
	}
	if len(cfg.GenKwargs) > 0 {
		slog.Warn("generation_kwargs given on the command line update the tasks' own; set do_sample=true for non-greedy decoding")
	}
	p := &Plan{cfg: cfg, opts: o}
	// lm-eval's random.seed(random_seed) before the tasks are built: the
	// seed of Python's module generator for ported helpers that use it
	// (seed 0, a fresh process's, when --seed leaves it unset).
	var seed int64
	if s := cfg.Seeds.Random; s != nil {
		seed = *s
	}
	p.random = pyrand.NewModule(seed)
	var err error
	if p.chat, err = parseChatOptions(cfg.ModelArgs); err != nil {
		return nil, err
	}
	if err := p.resolve(); err != nil {
		return nil, err
	}
	return p, nil
}

// Tasks are the names of the plan's tasks, in evaluation order (groups
// depth first, each task once).
func (p *Plan) Tasks() []string {
	names := make([]string, len(p.runs))
	for i, tr := range p.runs {
		names[i] = tr.t.Name
	}
	return names
}

// LoadData loads the documents every task will read (the split it
// evaluates, the one its few-shot examples come from), so that a dataset
// that cannot be had, or a local file that is missing, stops a run before
// its model loads; Build then uses them. An error names the task and the
// split and, where the Hub could not be reached, what to do. opts are
// added to NewPlan's (WithLoader).
func (p *Plan) LoadData(ctx context.Context, opts ...Option) error {
	for _, f := range opts {
		f(&p.opts)
	}
	return p.loadData(ctx)
}

// Workload is the plan's tasks built: documents loaded, prompts
// rendered, requests made and merged into one stream per request type,
// metrics and filters prepared: the model's work, and how its answers are
// scored.
type Workload struct {
	plan *Plan
	st   *streams
	// lm is the model the prompts were built for and, once Run has run,
	// the one that answered: the results' model facts come from it.
	lm model.LM
	// modelTime is the time spent waiting on the model (Run).
	modelTime time.Duration
	// gens counts the generations' tokens and keeps a reasoning model's
	// whole generations for the samples.
	gens   *generations
	scored bool
}

// Build loads every task's documents and builds its requests into the
// plan's Workload. lm is the
// model the prompts are for: its chat template (--apply_chat_template),
// token counting (tasks given as suite|task|shots|1) and token texts
// (think_end_token as an id); it may be nil when the run needs none of
// them. opts are added to NewPlan's. The context carries the progress
// display and cancels the loading.
func (p *Plan) Build(ctx context.Context, lm model.LM, opts ...Option) (*Workload, error) {
	if p.built {
		return nil, errors.New("harness: a plan builds once; make a new one")
	}
	p.built = true
	for _, f := range opts {
		f(&p.opts)
	}
	if p.start.IsZero() {
		p.start = p.opts.now()
	}
	p.ensureLoader(ctx)
	if p.opts.writeOut == nil {
		p.opts.writeOut = os.Stderr
	}
	if err := p.chat.resolveThinkToken(lm); err != nil {
		return nil, err
	}
	w := &Workload{plan: p, lm: lm, gens: newGenerations(p.chat.thinkGiven)}
	if err := w.buildTasks(ctx, lm); err != nil {
		return nil, err
	}
	st, err := w.requests()
	if err != nil {
		return nil, err
	}
	w.st = st
	return w, nil
}

// Requests are the model's work: each request type's unique requests, in
// the order Run sends them (longest document first, a document's requests
// together). Answers are given by position in these lists.
type Requests struct {
	Loglikelihood []model.LoglikelihoodRequest
	Rolling       []model.RollingRequest
	Generate      []model.GenerateRequest
}

// Requests returns the workload's requests (shared: do not modify them).
func (w *Workload) Requests() Requests {
	return Requests{Loglikelihood: w.st.ll.reqs, Rolling: w.st.roll.reqs, Generate: w.st.gen.reqs}
}

// Tasks are the built tasks in evaluation order: their documents (with
// targets and choices) and instances.
func (w *Workload) Tasks() []*task.Task {
	out := make([]*task.Task, len(w.plan.runs))
	for i, tr := range w.plan.runs {
		out[i] = tr.t
	}
	return out
}

// Configs are the tasks' configurations as the results' "configs" give
// them, by task name.
func (w *Workload) Configs() map[string]any {
	out := make(map[string]any, len(w.plan.runs))
	for _, tr := range w.plan.runs {
		out[tr.t.Name] = dumpConfig(tr.t)
	}
	return out
}

// Answers receives a model's answers: i is the request's position in
// its type's Requests list. The context cancels the scoring work an
// answer starts (function metrics that run programs). A Scorer is one.
type Answers interface {
	Loglikelihood(ctx context.Context, i int, r model.LoglikelihoodResult) error
	Rolling(ctx context.Context, i int, r model.RollingResult) error
	Generated(ctx context.Context, i int, text string) error
}

// Run sends the workload's requests to lm, one stream per request type in
// chunks (WithChunkSize), and hands each answer to a as it arrives, by its
// position in Requests; with WithShard, only the shard's part. A failed
// request's error names its task and document. The context carries the
// progress display and cancels the run.
func (w *Workload) Run(ctx context.Context, lm model.LM, a Answers) error {
	w.lm = lm
	st := w.st
	if o := w.plan.opts.shard; o != nil {
		// WithShard: only this shard's part of the streams.
		sp, err := w.Split(o.count)
		if err != nil {
			return err
		}
		if o.index < 0 || o.index >= o.count {
			return fmt.Errorf("harness: shard %d of %d: want 0 to %d", o.index, o.count, o.count-1)
		}
		st, a = sp.part(w.st, o.index, a)
	}
	start := time.Now()
	err := w.run(ctx, lm, st, a)
	w.modelTime += time.Since(start)
	return err
}

// Scorer is the score stage: it takes the answers of a Workload (from Run,
// or from the caller), and scores each document once it has them all:
// the task's filter pipelines, then its metrics; with WithSamples, the
// document's samples are written then.
type Scorer struct {
	w      *Workload
	tasks  []*taskScores // the plan's tasks' answers and scores, in order
	closed bool
}

var _ Answers = (*Scorer)(nil)

// Score opens the samples writers (WithSamples) and returns the Scorer of
// the workload's answers.
func (w *Workload) Score() (*Scorer, error) {
	if w.scored {
		return nil, errors.New("harness: a workload is scored once; build again")
	}
	w.scored = true
	s := &Scorer{w: w, tasks: make([]*taskScores, len(w.plan.runs))}
	for i, tr := range w.plan.runs {
		s.tasks[i] = newTaskScores(tr)
	}
	if err := s.openSamples(); err != nil {
		s.closeSamples()
		return nil, err
	}
	return s, nil
}

// Loglikelihood is the answer to Requests().Loglikelihood[i].
func (s *Scorer) Loglikelihood(ctx context.Context, i int, r model.LoglikelihoodResult) error {
	return answer(ctx, s, s.w.st.ll, i, r)
}

// Rolling is the answer to Requests().Rolling[i].
func (s *Scorer) Rolling(ctx context.Context, i int, r model.RollingResult) error {
	return answer(ctx, s, s.w.st.roll, i, r)
}

// Generated is the answer to Requests().Generate[i].
func (s *Scorer) Generated(ctx context.Context, i int, text string) error {
	return answer(ctx, s, s.w.st.gen, i, text)
}

// Close checks that every document was answered and closes the samples
// writers (which it does also on error). It may be called more than once.
func (s *Scorer) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if err := s.unanswered(); err != nil {
		s.closeSamples()
		return err
	}
	return s.closeSamples()
}

// Report closes the Scorer and aggregates: every task's metrics with
// their standard errors, the groups', and the results object as lm-eval's
// evaluate returns it, with the run's settings and the model's facts. The
// context cancels the aggregation (bootstrap standard errors).
func (s *Scorer) Report(ctx context.Context) (*results.Results, error) {
	if err := s.Close(); err != nil {
		return nil, err
	}
	// np.random.seed(numpy_random_seed): the state numpy's global
	// generator has for the aggregations that draw from it.
	res, err := s.report(nprand.NewContext(ctx, s.w.plan.cfg.Seeds.NumPy))
	if err != nil {
		return nil, err
	}
	s.w.fillConfig(res)
	return res, nil
}

// unanswered says which document still lacks answers, if one does.
func (s *Scorer) unanswered() error {
	for _, ts := range s.tasks {
		for p, n := range ts.pending {
			if n != 0 {
				t := ts.run.t
				return fmt.Errorf("task %s: document %d got %d answers too few", t.Name, t.Docs[p].ID, n)
			}
		}
	}
	return nil
}

// openSamples opens every task's samples writer.
func (s *Scorer) openSamples() error {
	open := s.w.plan.opts.openSamples
	if open == nil {
		return nil
	}
	for _, ts := range s.tasks {
		w, err := open(ts.run.t.Name)
		if err != nil {
			return fmt.Errorf("samples for task %s: %w", ts.run.t.Name, err)
		}
		ts.samples = w
	}
	return nil
}

// closeSamples closes the writers; it may be called more than once.
func (s *Scorer) closeSamples() error {
	var errs []error
	for _, ts := range s.tasks {
		if ts.samples != nil {
			errs = append(errs, ts.samples.Close())
			ts.samples = nil
		}
	}
	return errors.Join(errs...)
}

// Evaluate runs the plan's tasks on lm: Build, Score, Run and Report.
// opts are added to NewPlan's.
func (p *Plan) Evaluate(ctx context.Context, lm model.LM, opts ...Option) (*results.Results, error) {
	w, err := p.Build(ctx, lm, opts...)
	if err != nil {
		return nil, err
	}
	s, err := w.Score()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := w.Run(ctx, lm, s); err != nil {
		return nil, err
	}
	return s.Report(ctx)
}
