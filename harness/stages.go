package harness

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
)

// The evaluator's stages, in order (docs/evaluate.md):
//
//	plan   NewPlan      resolve tasks and groups, fail fast (no model, no data)
//	data   Plan.LoadData (optional) every task's documents, still no model
//	build  Plan.Build   documents, prompts, requests (Build.Requests)
//	score  Build.Score  a Scorer: filters and metrics, as answers arrive
//	run    Build.Run    answers from an LM, handed to the Scorer
//	report Scorer.Report aggregation, groups, the results object
//
// Evaluate is their composition. Each stage is used once: a Plan builds
// once, a Build is scored once.

// Plan is a run's tasks and groups resolved from its configuration: every
// --tasks entry names tasks that exist and parse, unsafe code is
// permitted, the chat model_args are valid. It loads no documents and
// needs no model, so a caller can check a run before loading a model.
type Plan struct {
	ev    *evaluation
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
		r, err := NewRegistry(o.builtin, cfg.IncludePaths, cfg.Metadata)
		if err != nil {
			return nil, err
		}
		o.registry = r
	}
	if len(cfg.GenKwargs) > 0 {
		slog.Warn("generation_kwargs given on the command line update the tasks' own; set do_sample=true for non-greedy decoding")
	}
	// Programs the model writes run only with the user's consent.
	codeexec.Confirm(cfg.ConfirmRunUnsafeCode)
	codeexec.AllowUnconfined(cfg.ConfirmRunUnconfinedCode)
	ev := &evaluation{cfg: cfg, opts: o}
	var err error
	if ev.chat, err = parseChatOptions(cfg.ModelArgs); err != nil {
		return nil, err
	}
	ev.gens = newGenerations(ev.chat.thinkGiven)
	if err := ev.resolve(); err != nil {
		return nil, err
	}
	return &Plan{ev: ev}, nil
}

// Tasks are the names of the plan's tasks, in evaluation order (groups
// depth first, each task once).
func (p *Plan) Tasks() []string {
	names := make([]string, len(p.ev.runs))
	for i, tr := range p.ev.runs {
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
		f(&p.ev.opts)
	}
	return p.ev.loadData(ctx)
}

// Build is the plan's tasks built: documents loaded, prompts rendered,
// requests made and merged into one stream per request type, metrics and
// filters prepared.
type Build struct {
	ev     *evaluation
	st     *streams
	scored bool
}

// Build loads every task's documents and builds its requests. lm is the
// model the prompts are for: its chat template (--apply_chat_template),
// token counting (tasks given as suite|task|shots|1) and token texts
// (think_end_token as an id); it may be nil when the run needs none of
// them. opts are added to NewPlan's. The context carries the progress
// display and cancels the loading.
func (p *Plan) Build(ctx context.Context, lm model.LM, opts ...Option) (*Build, error) {
	if p.built {
		return nil, errors.New("harness: a plan builds once; make a new one")
	}
	p.built = true
	ev := p.ev
	for _, f := range opts {
		f(&ev.opts)
	}
	if ev.start.IsZero() {
		ev.start = ev.opts.now()
	}
	ev.lm, ev.ctx = lm, ctx
	ev.ensureLoader(ctx)
	if ev.opts.writeOut == nil {
		ev.opts.writeOut = os.Stderr
	}
	if err := ev.chat.resolveThinkToken(lm); err != nil {
		return nil, err
	}
	if err := ev.build(ctx); err != nil {
		return nil, err
	}
	st, err := ev.requests()
	if err != nil {
		return nil, err
	}
	return &Build{ev: ev, st: st}, nil
}

// Requests are the model's work: each request type's unique requests, in
// the order Run sends them (longest document first, a document's requests
// together). Answers are given by position in these lists.
type Requests struct {
	Loglikelihood []model.LoglikelihoodRequest
	Rolling       []model.RollingRequest
	Generate      []model.GenerateRequest
}

// Requests returns the build's requests (shared: do not modify them).
func (b *Build) Requests() Requests {
	return Requests{Loglikelihood: b.st.ll.reqs, Rolling: b.st.roll.reqs, Generate: b.st.gen.reqs}
}

// Tasks are the built tasks in evaluation order: their documents (with
// targets and choices) and instances.
func (b *Build) Tasks() []*task.Task {
	out := make([]*task.Task, len(b.ev.runs))
	for i, tr := range b.ev.runs {
		out[i] = tr.t
	}
	return out
}

// Configs are the tasks' configurations as the results' "configs" give
// them, by task name.
func (b *Build) Configs() map[string]any {
	out := make(map[string]any, len(b.ev.runs))
	for _, tr := range b.ev.runs {
		out[tr.t.Name] = dumpConfig(tr.t)
	}
	return out
}

// Answers receives a model's answers: i is the request's position in
// its type's Requests list. A Scorer is one.
type Answers interface {
	Loglikelihood(i int, r model.LoglikelihoodResult) error
	Rolling(i int, r model.RollingResult) error
	Generated(i int, text string) error
}

// Run sends the build's requests to lm, one stream per request type in
// chunks (WithChunkSize), and hands each answer to a as it arrives. A
// failed request's error names its task and document. The context carries
// the progress display and cancels the run.
func (b *Build) Run(ctx context.Context, lm model.LM, a Answers) error {
	b.ev.lm = lm
	start := time.Now()
	err := b.ev.run(ctx, lm, b.st, a)
	b.ev.modelTime += time.Since(start)
	return err
}

// Scorer is the score stage: it takes the answers of a Build (from Run,
// or from the caller), and scores each document once it has them all:
// the task's filter pipelines, then its metrics; with WithSamples, the
// document's samples are written then.
type Scorer struct {
	b      *Build
	closed bool
}

var _ Answers = (*Scorer)(nil)

// Score opens the samples writers (WithSamples) and returns the Scorer of
// the build's answers. The context cancels scoring work (function metrics
// that run programs).
func (b *Build) Score(ctx context.Context) (*Scorer, error) {
	if b.scored {
		return nil, errors.New("harness: a build is scored once; build again")
	}
	b.scored = true
	b.ev.ctx = ctx
	if err := b.ev.openSamples(); err != nil {
		b.ev.closeSamples()
		return nil, err
	}
	return &Scorer{b: b}, nil
}

// Loglikelihood is the answer to Requests().Loglikelihood[i].
func (s *Scorer) Loglikelihood(i int, r model.LoglikelihoodResult) error {
	return answer(s.b.ev, s.b.st.ll, i, r)
}

// Rolling is the answer to Requests().Rolling[i].
func (s *Scorer) Rolling(i int, r model.RollingResult) error {
	return answer(s.b.ev, s.b.st.roll, i, r)
}

// Generated is the answer to Requests().Generate[i].
func (s *Scorer) Generated(i int, text string) error {
	return answer(s.b.ev, s.b.st.gen, i, text)
}

// Close checks that every document was answered and closes the samples
// writers (which it does also on error). It may be called more than once.
func (s *Scorer) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if err := s.b.ev.unanswered(); err != nil {
		s.b.ev.closeSamples()
		return err
	}
	return s.b.ev.closeSamples()
}

// Report closes the Scorer and aggregates: every task's metrics with
// their standard errors, the groups', and the results object as lm-eval's
// evaluate returns it, with the run's settings and the model's facts.
func (s *Scorer) Report(ctx context.Context) (*results.Results, error) {
	if err := s.Close(); err != nil {
		return nil, err
	}
	ev := s.b.ev
	res, err := ev.report(ctx)
	if err != nil {
		return nil, err
	}
	ev.fillConfig(res, ev.start, ev.modelTime)
	return res, nil
}

// Evaluate runs the plan's tasks on lm: Build, Score, Run and Report.
// opts are added to NewPlan's.
func (p *Plan) Evaluate(ctx context.Context, lm model.LM, opts ...Option) (*results.Results, error) {
	b, err := p.Build(ctx, lm, opts...)
	if err != nil {
		return nil, err
	}
	s, err := b.Score(ctx)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := b.Run(ctx, lm, s); err != nil {
		return nil, err
	}
	return s.Report(ctx)
}
