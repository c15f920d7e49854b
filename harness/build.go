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
	"time"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// evaluation is one Evaluate call's state.
type evaluation struct {
	cfg  *config.Config
	lm   model.LM
	opts options

	roots []*node    // the selection, in --tasks order
	runs  []*taskRun // every task, depth first
	// ctx is Evaluate's, for the scoring work that can be cancelled
	// (function metrics that run programs).
	ctx context.Context
	// chat are the chat model_args (chat_template_args, enable_thinking,
	// think_end_token).
	chat chatOptions
	// gens counts the generations' tokens and keeps a reasoning model's
	// whole generations for the samples.
	gens *generations
	// start is when the evaluation began (the results' date); modelTime
	// the time spent waiting on the model.
	start     time.Time
	modelTime time.Duration
}

// node is a task or a group in the selection's hierarchy (lm-eval's
// task_dict).
type node struct {
	name     string
	run      *taskRun
	group    *task.Group
	children []*node
}

// taskRun is one task's requests, answers and scores.
type taskRun struct {
	t         *task.Task
	spec      config.TaskSpec
	specs     []metrics.Spec
	pipelines []*filters.Pipeline
	native    bool // scored by the task's own process_results
	// hasFuncs: some metric is a function lm-eval calls with references
	// and predictions (metrics.Spec.Func).
	hasFuncs bool
	// fnKeys are the keys function metrics returned as a dict, by
	// metric, in first-seen order (lm-eval gives each the function's
	// higher_is_better and aggregation).
	fnMu   sync.Mutex
	fnKeys map[string][]string

	// Per document (position in t.Docs): its instances sorted by Idx, the
	// responses of each (one per repeat), the answers still missing, and
	// the per-filter scores once complete.
	insts   [][]*task.Instance
	resps   [][][]any
	pending []int
	scores  [][]docScore

	samples SampleWriter
	// problems are the task's data problems, warned about once each.
	problems results.DataProblems
}

// docScore is one document's metric values under one filter, in the order
// process_results returns them.
type docScore struct {
	keys   []string
	values map[string]any
	// hashes is the logged sample's doc_hash + prompt_hash + target_hash
	// (with --log_samples), for the task's task_hashes entry.
	hashes string
}

// resolve loads every --tasks entry into the hierarchy.
func (ev *evaluation) resolve() error {
	seen := map[string]*taskRun{}
	warned := map[string]bool{}
	var errs []error
	for _, spec := range ev.cfg.Tasks {
		nwarn := len(ev.opts.registry.Warnings())
		sel, err := ev.opts.registry.Load([]string{spec.Name})
		// Unknown keys are found as the YAML is parsed: say so, so that a
		// misspelt key does not pass silently.
		for _, w := range ev.opts.registry.Warnings()[nwarn:] {
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
			ev.roots = append(ev.roots, ev.member(m, spec, seen))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(ev.runs) == 0 {
		return errors.New("no tasks to evaluate")
	}
	ev.warnShadowed()
	if err := ev.applyDataFiles(); err != nil {
		return err
	}
	// As lm-eval's evaluator, before anything runs; and the interpreter
	// must exist before the model spends time generating programs.
	var unsafe []string
	for _, tr := range ev.runs {
		if !tr.t.Config.UnsafeCode {
			continue
		}
		unsafe = append(unsafe, tr.t.Name)
		if !ev.cfg.ConfirmRunUnsafeCode {
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
		if err := codeexec.Check(context.Background()); err != nil {
			return fmt.Errorf("tasks %s run the model's code: %w", strings.Join(unsafe, ", "), err)
		}
	}
	// A misspelt name in --samples would otherwise evaluate every document
	// of the task meant, silently.
	for _, name := range slices.Sorted(maps.Keys(ev.cfg.Samples)) {
		if seen[name] == nil {
			slog.Warn("--samples names a task that is not evaluated; its indices are ignored", "task", name)
		}
	}
	return nil
}

// member makes the node of a task or group. A task that is a member of
// several selected groups is evaluated once and counts in each.
func (ev *evaluation) member(m task.Member, spec config.TaskSpec, seen map[string]*taskRun) *node {
	if m.Task != nil {
		tr := seen[m.Task.Name]
		if tr == nil {
			tr = &taskRun{t: m.Task, spec: spec}
			seen[m.Task.Name] = tr
			ev.runs = append(ev.runs, tr)
		}
		return &node{name: m.Task.Name, run: tr}
	}
	n := &node{name: m.Group.Name, group: m.Group}
	for _, c := range m.Group.Members {
		n.children = append(n.children, ev.member(c, spec, seen))
	}
	return n
}

// build builds every task's documents and requests and prepares its
// metrics and filters.
func (ev *evaluation) build(ctx context.Context) error {
	cfg := ev.cfg
	var chat task.ChatTemplate
	if cfg.ChatTemplate.Enabled {
		var err error
		if chat, err = chatTemplate(ev.lm, cfg.ChatTemplate.Name, ev.chat.templateArgs); err != nil {
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
	if err := ev.deleteCachedRequests(); err != nil {
		return err
	}
	// lm-eval's random.seed(random_seed) before the tasks are built: the
	// seed of Python's module generator for ported helpers that use it.
	if s := cfg.Seeds.Random; s != nil {
		pyrand.SeedGlobal(*s)
	}
	// and np.random.seed(numpy_random_seed): the state numpy's global
	// generator has for the helper libraries that draw from it.
	nprand.SeedGlobal(cfg.Seeds.NumPy)
	// Tasks build concurrently: loading datasets is mostly waiting on
	// the Hub or the disk, and prompt rendering is independent per task.
	// Those whose process_docs draws from Python's module-level generator
	// build first, one by one, in lm-eval's construction order and with
	// the generator as lm-eval leaves it for each (buildGlobalRandom).
	errs := make([]error, len(ev.runs))
	ev.buildGlobalRandom(ctx, chat, errs)
	sem := make(chan struct{}, buildWorkers)
	var wg sync.WaitGroup
	for i, tr := range ev.runs {
		if tr.t.Config.UsesGlobalRandom() {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = ev.buildOne(ctx, tr, chat)
		}()
	}
	wg.Wait()
	for i, tr := range ev.runs {
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
			fmt.Fprintf(ev.opts.writeOut, "Task: %s; prompts of the first document:\n", t.Name)
			if err := task.WriteOut(ev.opts.writeOut, t, 1); err != nil {
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
func (ev *evaluation) buildGlobalRandom(ctx context.Context, chat task.ChatTemplate, errs []error) {
	index := make(map[*taskRun]int, len(ev.runs))
	some := false
	for i, tr := range ev.runs {
		index[tr] = i
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
				errs[index[n.run]] = ev.buildOne(ctx, n.run, chat)
			}
			return
		}
		for _, c := range n.children {
			walk(c)
		}
		for _, c := range n.children {
			if c.run != nil {
				pyrand.WithGlobal(func(r *pyrand.Rand) {
					for range 2 * 8 {
						r.Random()
					}
				})
			}
		}
	}
	for _, r := range ev.roots {
		walk(r)
	}
	// A task the selection reaches by no node (none today) still builds.
	for i, tr := range ev.runs {
		if tr.t.Config.UsesGlobalRandom() && !built[tr] {
			errs[i] = ev.buildOne(ctx, tr, chat)
		}
	}
}

// buildWorkers bounds the tasks built at once.
const buildWorkers = 4

// buildOne builds one task's requests and prepares its scoring.
func (ev *evaluation) buildOne(ctx context.Context, tr *taskRun, chat task.ChatTemplate) error {
	cfg := ev.cfg
	t := tr.t
	bo := task.BuildOptions{
		Loader:             ev.opts.loader,
		Columns:            ev.opts.columns,
		Limit:              limitValue(cfg.Limit),
		Samples:            cfg.Samples[t.Name],
		NumFewshot:         cfg.NumFewshot,
		FewshotSeed:        cfg.Seeds.Fewshot,
		SystemInstruction:  cfg.SystemInstruction,
		GenKwargs:          cfg.GenKwargs,
		GenKwargsOrder:     cfg.GenKwargsOrder,
		ChatTemplate:       chat,
		FewshotAsMultiturn: cfg.FewshotAsMultiturn,
	}
	if len(bo.Samples) > 0 {
		bo.Limit = 0
	}
	if tr.spec.NumFewshot != nil {
		bo.NumFewshot = tr.spec.NumFewshot
	}
	if tr.spec.TruncateFewshots {
		if tc, ok := model.As[model.TokenCounter](ev.lm); ok {
			bo.CountTokens, bo.MaxTokens = tc.CountTokens, tc.MaxLength()
		} else {
			slog.Warn("the model cannot count tokens; few-shot examples are not truncated", "task", t.Name)
		}
	}
	if err := ev.buildTask(ctx, tr, bo); err != nil {
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
	tr.resps = make([][][]any, len(t.Docs))
	tr.pending = make([]int, len(t.Docs))
	tr.scores = make([][]docScore, len(t.Docs))
	for p, ins := range tr.insts {
		sortByIdx(ins)
		tr.resps[p] = make([][]any, len(ins))
		for j, in := range ins {
			n := max(in.Repeats, 1)
			tr.resps[p][j] = make([]any, n)
			tr.pending[p] += n
		}
	}
	return nil
}

// higherIsBetter calls set for each metric of the task, as lm-eval's
// higher_is_better(): the metric_list entries, then the keys that
// function metrics returned as a dict, each with its function's value.
func (tr *taskRun) higherIsBetter(set func(name string, hib bool)) {
	for _, s := range tr.specs {
		set(s.Name, s.HigherIsBetter)
	}
	tr.fnMu.Lock()
	defer tr.fnMu.Unlock()
	for _, s := range tr.specs {
		for _, k := range tr.fnKeys[s.Name] {
			set(k, s.HigherIsBetter)
		}
	}
}

func sortByIdx(ins []*task.Instance) {
	for i := 1; i < len(ins); i++ {
		for j := i; j > 0 && ins[j].Idx < ins[j-1].Idx; j-- {
			ins[j], ins[j-1] = ins[j-1], ins[j]
		}
	}
}

// openSamples opens every task's samples writer.
func (ev *evaluation) openSamples() error {
	if ev.opts.openSamples == nil {
		return nil
	}
	for _, tr := range ev.runs {
		w, err := ev.opts.openSamples(tr.t.Name)
		if err != nil {
			return fmt.Errorf("samples for task %s: %w", tr.t.Name, err)
		}
		tr.samples = w
	}
	return nil
}

// closeSamples closes the writers; it may be called more than once.
func (ev *evaluation) closeSamples() error {
	var errs []error
	for _, tr := range ev.runs {
		if tr.samples != nil {
			errs = append(errs, tr.samples.Close())
			tr.samples = nil
		}
	}
	return errors.Join(errs...)
}
