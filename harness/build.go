package harness

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// The plan and build stages' work (stages.go has their API): resolving
// the --tasks entries into tasks and groups, then building every task's
// documents and requests and preparing its scoring.

// node is a task or a group in the selection's hierarchy (lm-eval's
// task_dict).
type node struct {
	name     string
	run      *taskRun
	group    *task.Group
	children []*node
}

// taskRun is one task of a plan: the loaded task and the --tasks entry
// that selected it; the build stage adds how it is scored and its
// instances by document. What the answers make of it (responses,
// scores) is the score stage's (taskScores).
type taskRun struct {
	t     *task.Task
	spec  config.TaskSpec
	index int // position among the plan's tasks

	// Set by the build stage.
	specs     []metrics.Spec
	pipelines []*filters.Pipeline
	native    bool // scored by the task's own process_results
	// hasFuncs: some metric is a function lm-eval calls with references
	// and predictions (metrics.Spec.Func).
	hasFuncs bool
	// insts are each document's (position in t.Docs) instances, sorted
	// by Idx.
	insts [][]*task.Instance
	// problems are the task's data problems (the build's, and the
	// requests the run will truncate), warned about once each.
	problems results.DataProblems
}

// resolve loads every --tasks entry of the plan's configuration into the
// hierarchy.
func (p *Plan) resolve() error {
	seen := map[string]*taskRun{}
	warned := map[string]bool{}
	reg := p.opts.registry
	var errs []error
	for _, spec := range p.cfg.Tasks {
		nwarn := len(reg.Warnings())
		sel, err := reg.Load([]string{spec.Name})
		// Unknown keys are found as the YAML is parsed: say so, so that a
		// misspelt key does not pass silently.
		for _, w := range reg.Warnings()[nwarn:] {
			if !warned[w] {
				warned[w] = true
				slog.Warn("task config", "warning", w)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--tasks %s: %w", spec.Name, err))
			continue
		}
		for _, m := range sel.Members {
			if m.Task != nil && seen[m.Task.Name] != nil {
				slog.Warn("task selected twice; evaluating it once", "task", m.Task.Name)
				continue
			}
			p.roots = append(p.roots, p.member(m, spec, seen))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(p.runs) == 0 {
		return errors.New("no tasks to evaluate")
	}
	p.warnShadowed()
	if err := p.applyDataFiles(); err != nil {
		return err
	}
	// As lm-eval's evaluator, before anything runs; and the interpreter
	// must exist before the model spends time generating programs.
	var unsafe []string
	for _, tr := range p.runs {
		if !tr.t.Config.UnsafeCode {
			continue
		}
		unsafe = append(unsafe, tr.t.Name)
		if !p.cfg.ConfirmRunUnsafeCode {
			errs = append(errs, fmt.Errorf("task %s (%s) runs the model's code (unsafe_code: true): give --confirm_run_unsafe_code to run it", tr.t.Name, tr.t.Config.File))
		} else if _, err := codeexec.Python(); err != nil {
			errs = append(errs, fmt.Errorf("task %s: %w", tr.t.Name, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// And the sandbox must hold here (or the user have accepted that it
	// does not).
	if len(unsafe) > 0 {
		if err := codeexec.Check(codeexec.WithConsent(context.Background(), p.consent())); err != nil {
			return fmt.Errorf("tasks %s run the model's code: %w", strings.Join(unsafe, ", "), err)
		}
	}
	// A misspelt name in --samples would otherwise evaluate every document
	// of the task meant, silently.
	for _, name := range slices.Sorted(maps.Keys(p.cfg.Samples)) {
		if seen[name] == nil {
			slog.Warn("--samples names a task that is not evaluated; its indices are ignored", "task", name)
		}
	}
	return nil
}

// consent is what the user accepted about running the model's code
// (--confirm_run_unconfined_code), for the contexts of this plan's code
// execution.
func (p *Plan) consent() codeexec.Consent {
	return codeexec.Consent{Unconfined: p.cfg.ConfirmRunUnconfinedCode}
}

// member makes the node of a task or group. A task that is a member of
// several selected groups is evaluated once and counts in each.
func (p *Plan) member(m task.Member, spec config.TaskSpec, seen map[string]*taskRun) *node {
	if m.Task != nil {
		tr := seen[m.Task.Name]
		if tr == nil {
			tr = &taskRun{t: m.Task, spec: spec, index: len(p.runs)}
			seen[m.Task.Name] = tr
			p.runs = append(p.runs, tr)
		}
		return &node{name: m.Task.Name, run: tr}
	}
	n := &node{name: m.Group.Name, group: m.Group}
	for _, c := range m.Group.Members {
		n.children = append(n.children, p.member(c, spec, seen))
	}
	return n
}

// buildTasks builds every task's documents and requests and prepares its
// metrics and filters, for the model lm.
func (w *Workload) buildTasks(ctx context.Context, lm model.LM) error {
	p := w.plan
	cfg := p.cfg
	var chat task.ChatTemplate
	if cfg.ChatTemplate.Enabled {
		var err error
		if chat, err = chatTemplate(lm, cfg.ChatTemplate.Name, p.chat.templateArgs); err != nil {
			which := "the default template"
			if cfg.ChatTemplate.Name != "" {
				which = fmt.Sprintf("template %q", cfg.ChatTemplate.Name)
			}
			model := cfg.Model
			if p := cfg.ModelArgs["pretrained"]; p != "" {
				model += " " + p
			}
			return fmt.Errorf("--apply_chat_template: model %s, %s: %w", model, which, err)
		}
	}
	if err := w.deleteCachedRequests(); err != nil {
		return err
	}
	// Tasks build concurrently: loading datasets is mostly waiting on
	// the Hub or the disk, and prompt rendering is independent per task.
	// Those whose process_docs draws from Python's module-level generator
	// build first, one by one, in lm-eval's construction order and with
	// the generator as lm-eval leaves it for each (buildGlobalRandom).
	errs := make([]error, len(p.runs))
	w.buildGlobalRandom(ctx, lm, chat, errs)
	sem := make(chan struct{}, buildWorkers)
	var wg sync.WaitGroup
	for i, tr := range p.runs {
		if tr.t.Config.UsesGlobalRandom() {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = w.buildTask(ctx, lm, tr, chat)
		}()
	}
	wg.Wait()
	for i, tr := range p.runs {
		if errs[i] != nil {
			return errs[i]
		}
		t := tr.t
		if t.Fewshot.Reduced > 0 {
			slog.Warn("few-shot examples cut to fit the context", "task", t.Name, "documents", t.Fewshot.Reduced, "min_shots", t.Fewshot.MinShots, "requested", t.NumFewshot)
		}
		if d, n := t.GoldErrors(); n > 0 {
			// lm-eval logs every such document; once per task is enough.
			slog.Warn("gold answer is not one of the choices; scored as wrong, as lm-eval does", "task", t.Name,
				"doc_id", d.ID, "gold", pyval.Repr(t.GoldValue(d)), "choices", len(d.Choices), "documents", n)
			tr.problems.GoldNotInChoices = n
		}
		if d, field, n := t.NoneFields(); n > 0 {
			// lm-eval renders the text "None" and says nothing.
			slog.Warn("a field of the document is None (a missing value) and renders as None in its prompt, target or choices, as in lm-eval",
				"task", t.Name, "doc_id", d.ID, "field", field, "documents", n)
			tr.problems.NoneFields = n
		}
		if cfg.WriteOut {
			fmt.Fprintf(p.opts.writeOut, "Task: %s; prompts of the first document:\n", t.Name)
			if err := task.WriteOut(p.opts.writeOut, t, 1); err != nil {
				return err
			}
		}
		slog.Debug("built task", "task", t.Name, "documents", len(t.Docs), "requests", len(t.Instances), "num_fewshot", t.NumFewshot)
	}
	return nil
}

// buildGlobalRandom builds the tasks whose process_docs draws from
// Python's module-level generator (gpqa's random.shuffle) as lm-eval's
// TaskManager constructs them: depth first through the selection, a
// group's members all constructed before the group adds them; and
// Group.add reads each added task's task_name twice (hasattr, then the
// value), which draws random_task_id() (random.choices of 8 characters: 8
// random() calls) from the module generator every time, as
// ConfigurableTask.task_name's getattr default is evaluated whatever the
// name. So leaderboard_gpqa_diamond shuffles after the 24 bbh tasks were
// added to leaderboard_bbh (48 draws of 8), then extended, then main.
func (w *Workload) buildGlobalRandom(ctx context.Context, lm model.LM, chat task.ChatTemplate, errs []error) {
	p := w.plan
	some := false
	for _, tr := range p.runs {
		some = some || tr.t.Config.UsesGlobalRandom()
	}
	if !some {
		return
	}
	built := map[*taskRun]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.run != nil {
			if n.run.t.Config.UsesGlobalRandom() && !built[n.run] {
				built[n.run] = true
				errs[n.run.index] = w.buildTask(ctx, lm, n.run, chat)
			}
			return
		}
		for _, c := range n.children {
			walk(c)
		}
		for _, c := range n.children {
			if c.run != nil {
				p.random.With(func(r *pyrand.Rand) {
					for range 2 * 8 {
						r.Random()
					}
				})
			}
		}
	}
	for _, r := range p.roots {
		walk(r)
	}
	// A task the selection reaches by no node (none today) still builds.
	for _, tr := range p.runs {
		if tr.t.Config.UsesGlobalRandom() && !built[tr] {
			errs[tr.index] = w.buildTask(ctx, lm, tr, chat)
		}
	}
}

// buildWorkers bounds the tasks built at once.
const buildWorkers = 4

// buildTask builds one task's requests for the model lm and prepares its
// scoring.
func (w *Workload) buildTask(ctx context.Context, lm model.LM, tr *taskRun, chat task.ChatTemplate) error {
	p := w.plan
	cfg := p.cfg
	t := tr.t
	bo := task.BuildOptions{
		Loader:             p.opts.loader,
		Columns:            p.opts.columns,
		Limit:              limitValue(cfg.Limit),
		Samples:            cfg.Samples[t.Name],
		NumFewshot:         cfg.NumFewshot,
		FewshotSeed:        cfg.Seeds.Fewshot,
		SystemInstruction:  cfg.SystemInstruction,
		GenKwargs:          cfg.GenKwargs,
		GenKwargsOrder:     cfg.GenKwargsOrder,
		ChatTemplate:       chat,
		FewshotAsMultiturn: cfg.FewshotAsMultiturn,
		Random:             p.random,
	}
	if len(bo.Samples) > 0 {
		bo.Limit = 0
	}
	if tr.spec.NumFewshot != nil {
		bo.NumFewshot = tr.spec.NumFewshot
	}
	if tr.spec.TruncateFewshots {
		if tc, ok := model.As[model.TokenCounter](lm); ok {
			bo.CountTokens, bo.MaxTokens = tc.CountTokens, tc.MaxLength()
		} else {
			slog.Warn("the model cannot count tokens; few-shot examples are not truncated", "task", t.Name)
		}
	}
	if err := w.buildCached(ctx, tr, bo); err != nil {
		return err
	}
	if err := tr.prepare(cfg.PredictOnly); err != nil {
		return fmt.Errorf("task %s: %w", t.Name, err)
	}
	return nil
}

func limitValue(l config.Limit) float64 {
	if l.Fraction > 0 {
		return l.Fraction
	}
	return float64(l.Count)
}

// prepare takes the task's metrics and filter pipelines and indexes its
// instances by document.
func (tr *taskRun) prepare(predictOnly bool) error {
	c := tr.t.Config
	if predictOnly && c.Class == nil {
		// lm-eval's override_metric("bypass"): no process_results, one
		// metric that records nothing. (A Python class task keeps its
		// own process_results and aggregation(), which override_metric
		// does not replace.)
		tr.specs = []metrics.Spec{metrics.NewSpec("bypass", false)}
	} else {
		if c.MetricsError != nil {
			return c.MetricsError
		}
		tr.specs = c.Metrics
		if len(tr.specs) == 0 {
			var err error
			if tr.specs, err = metrics.Defaults(c.OutputType); err != nil {
				return err
			}
		}
		tr.native = c.ProcessResults != nil
	}
	for _, s := range tr.specs {
		tr.hasFuncs = tr.hasFuncs || s.Func != nil
	}
	if c.FiltersError != nil {
		return c.FiltersError
	}
	tr.pipelines = []*filters.Pipeline{filters.Default()}
	if len(c.Filters) > 0 {
		tr.pipelines = tr.pipelines[:0]
		for _, f := range c.Filters {
			pl, err := filters.NewPipeline(f.Name, f.Steps)
			if err != nil {
				return err
			}
			tr.pipelines = append(tr.pipelines, pl)
		}
	}
	t := tr.t
	pos := make(map[*task.DocInfo]int, len(t.Docs))
	for i, d := range t.Docs {
		pos[d] = i
	}
	tr.insts = make([][]*task.Instance, len(t.Docs))
	for i := range t.Instances {
		in := &t.Instances[i]
		p, ok := pos[in.Doc]
		if !ok {
			return fmt.Errorf("request for document %d, which is not among the task's documents", in.DocID)
		}
		tr.insts[p] = append(tr.insts[p], in)
	}
	for _, ins := range tr.insts {
		sortByIdx(ins)
	}
	return nil
}

func sortByIdx(ins []*task.Instance) {
	for i := 1; i < len(ins); i++ {
		for j := i; j > 0 && ins[j].Idx < ins[j-1].Idx; j-- {
			ins[j], ins[j-1] = ins[j-1], ins[j]
		}
	}
}
