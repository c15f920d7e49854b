package harness

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// metricKey is a "metric,filter" pair.
type metricKey struct{ metric, filter string }

func (k metricKey) String() string { return k.metric + "," + k.filter }

// taskResult is one task's aggregated metrics (lm-eval's TaskOutput after
// calculate_aggregate_metric).
type taskResult struct {
	keys   []metricKey
	value  map[metricKey]float64
	stderr map[metricKey]metrics.StderrResult
	size   int // lm-eval's "sample_len": the values of the last metric
	// count is a group's sample_count: the documents behind each key.
	count map[metricKey]int
}

// aggregate computes a task's metrics over its documents, in lm-eval's key
// order: filter by filter, metrics in the order the documents report them.
func (s *Scorer) aggregate(ctx context.Context, ts *taskScores) (*taskResult, error) {
	tr := ts.run
	items := map[metricKey][]any{}
	res := &taskResult{value: map[metricKey]float64{}, stderr: map[metricKey]metrics.StderrResult{}}
	for fi, pl := range tr.pipelines {
		for p := range tr.t.Docs {
			sc := ts.scores[p][fi]
			for _, m := range sc.keys {
				k := metricKey{m, pl.Name}
				if _, ok := items[k]; !ok {
					res.keys = append(res.keys, k)
				}
				items[k] = append(items[k], sc.values[m])
			}
		}
	}
	boot := metrics.Bootstrap{Iters: s.w.plan.cfg.BootstrapIters}
	for _, k := range res.keys {
		agg := "mean" // lm-eval's fallback for metrics outside metric_list
		for _, s := range tr.specs {
			if s.Name == k.metric {
				agg = s.Aggregation
				break
			}
		}
		v, se, err := metrics.Compute(ctx, k.metric, agg, items[k], boot)
		if err != nil {
			return nil, fmt.Errorf("task %s, filter %s: %w", tr.t.Name, k.filter, err)
		}
		res.value[k], res.stderr[k] = v, se
		res.size = len(items[k])
	}
	return res, nil
}

// report aggregates every task and group and fills the results object as
// lm-eval's evaluate returns it.
func (s *Scorer) report(ctx context.Context) (*results.Results, error) {
	p := s.w.plan
	taskRes := map[*taskRun]*taskResult{}
	for _, ts := range s.tasks {
		r, err := s.aggregate(ctx, ts)
		if err != nil {
			return nil, err
		}
		taskRes[ts.run] = r
	}
	groupRes := map[*node]*taskResult{}
	var walk func(n *node) error
	walk = func(n *node) error {
		for _, c := range n.children {
			if err := walk(c); err != nil {
				return err
			}
		}
		if n.group == nil || n.group.Aggregate == nil {
			return nil
		}
		r, err := aggregateGroup(n, taskRes)
		if err != nil {
			return err
		}
		groupRes[n] = r
		return nil
	}
	for _, n := range p.roots {
		if err := walk(n); err != nil {
			return nil, err
		}
	}

	out := results.New()
	// lm-eval's EvalAcc: the tasks in evaluation order, then the groups
	// bottom-up (children before parents).
	for _, ts := range s.tasks {
		addTask(out, ts, taskRes[ts.run])
	}
	groups := groupsPreOrder(p.roots)
	for _, n := range groupsPostOrder(p.roots) {
		g := n.group
		r, aggregated := groupRes[n]
		subs := make([]string, len(n.children))
		for i, c := range n.children {
			subs[i] = c.name
		}
		sampleLen := 0
		if aggregated {
			for _, l := range leaves(n) {
				sampleLen += taskRes[l].size
			}
		}
		e := out.AddGroup(results.Group{Name: g.Name, Alias: g.Alias, Version: groupVersion(g), Subtasks: subs,
			Aggregated: aggregated, SampleLen: sampleLen})
		if aggregated {
			counts := results.NewOrderedMap[int]()
			for _, k := range r.keys {
				se := r.stderr[k]
				results.SetMetric(e, k.metric, k.filter, r.value[k], se.Value, se.OK)
				counts.Set(k.String(), r.count[k])
			}
			results.SetSampleCount(e, counts)
		}
	}
	// group_subtasks, and the groups' n-shot and higher_is_better
	// (_propagate_num_fewshot, _propagate_higher_is_better): groups in
	// lm-eval's order, parents first, one pass.
	out.GroupSubtasks = results.NewOrderedMap[[]string]()
	for _, n := range groups {
		subs := make([]string, len(n.children))
		for i, c := range n.children {
			subs[i] = c.name
		}
		out.GroupSubtasks.Set(n.name, subs)
	}
	for _, n := range groups {
		shots := map[any]bool{}
		var shot any
		for _, c := range n.children {
			if v, ok := out.NShot[c.name]; ok {
				shots[v], shot = true, v
			}
		}
		if len(shots) == 1 {
			out.NShot[n.name] = shot
		}
		hib := results.NewOrderedMap[any]()
		for _, c := range n.children {
			ch, ok := out.HigherIsBetter[c.name]
			if !ok {
				continue
			}
			for _, m := range ch.Keys() {
				v, _ := ch.Get(m)
				if prev, seen := hib.Get(m); !seen {
					hib.Set(m, v)
				} else if prev != nil && prev != v {
					slog.Warn("higher_is_better values of a metric are not consistent in the group; defaulting to None", "group", n.name, "metric", m)
					hib.Set(m, nil)
				}
			}
		}
		if hib.Len() > 0 {
			out.HigherIsBetter[n.name] = hib
		}
	}
	// n-samples in evaluation order.
	ns := results.NewOrderedMap[results.NSamples]()
	for _, tr := range p.runs {
		ns.Set(tr.t.Name, results.NSamples{Original: tr.t.NumEvalDocs, Effective: len(tr.t.Docs)})
	}
	out.NSamples = ns
	out.TaskHashes = s.taskHashes()
	return out, nil
}

// taskHashes is lm-eval's task_hashes: per task with logged samples, the
// hash of its samples' doc, prompt and target hashes in the samples file's
// order (filter by filter, documents in order).
func (s *Scorer) taskHashes() *results.OrderedMap[string] {
	out := results.NewOrderedMap[string]()
	if s.w.plan.opts.openSamples == nil {
		return out
	}
	for _, ts := range s.tasks {
		tr := ts.run
		var b strings.Builder
		for fi := range tr.pipelines {
			for p := range tr.t.Docs {
				b.WriteString(ts.scores[p][fi].hashes)
			}
		}
		out.Set(tr.t.Name, results.HashString(b.String()))
	}
	return out
}

// aggregateGroup is lm-eval's consolidate_group_results for one group with
// an aggregate_metric_list: each listed metric and filter averaged over the
// group's tasks (nested ones included), size-weighted or not, with the
// pooled standard error.
func aggregateGroup(n *node, taskRes map[*taskRun]*taskResult) (*taskResult, error) {
	leaves := leaves(n)
	res := &taskResult{value: map[metricKey]float64{}, stderr: map[metricKey]metrics.StderrResult{}, count: map[metricKey]int{}}
	for _, am := range n.group.Aggregate {
		for _, f := range am.FilterList {
			k := metricKey{am.Metric, f}
			var subs []metrics.Subtask
			for _, l := range leaves {
				tr := taskRes[l]
				v, ok := tr.value[k]
				if !ok {
					continue
				}
				subs = append(subs, metrics.Subtask{Value: v, Stderr: tr.stderr[k], Size: tr.size})
			}
			if len(subs) == 0 {
				continue
			}
			if am.Aggregation != "mean" {
				return nil, fmt.Errorf("group %s: only 'mean' aggregates subtasks' scores, got %q for %s", n.group.Name, am.Aggregation, am.Metric)
			}
			if _, dup := res.value[k]; !dup {
				res.keys = append(res.keys, k)
			}
			v, se, size := metrics.Group(subs, am.WeightBySize)
			res.value[k], res.stderr[k] = v, se
			res.size = size
			res.count[k] = 0
			for _, s := range subs {
				res.count[k] += s.Size
			}
		}
	}
	return res, nil
}

// leaves are the tasks under n (lm-eval's Group.get_all_tasks), depth
// first.
func leaves(n *node) []*taskRun {
	var out []*taskRun
	var collect func(n *node)
	collect = func(n *node) {
		if n.run != nil {
			out = append(out, n.run)
		}
		for _, c := range n.children {
			collect(c)
		}
	}
	collect(n)
	return out
}

// groupsPreOrder lists the groups under roots, parents before children
// (lm-eval's groups dict), each once.
func groupsPreOrder(roots []*node) []*node {
	var out []*node
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.group == nil || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, n := range roots {
		walk(n)
	}
	return out
}

// groupsPostOrder lists the groups under roots, children before parents
// (lm-eval's _collect_groups_bottom_up), each once.
func groupsPostOrder(roots []*node) []*node {
	var out []*node
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.group == nil || seen[n] {
			return
		}
		seen[n] = true
		for _, c := range n.children {
			walk(c)
		}
		out = append(out, n)
	}
	for _, n := range roots {
		walk(n)
	}
	return out
}

// taskVersion is lm-eval's Task.VERSION: metadata.version, else the class
// default "Yaml".
func taskVersion(t *task.Task) any {
	if v := t.Config.Version(); v != nil {
		return v
	}
	return "Yaml"
}

// groupVersion is lm-eval's Group.version: str(metadata.version), or
// "N/A".
func groupVersion(g *task.Group) string {
	v := g.Version()
	if v == nil {
		return "N/A"
	}
	return pyval.Str(v)
}

// addTask adds one task's row and its facts.
func addTask(out *results.Results, ts *taskScores, r *taskResult) {
	t := ts.run.t
	alias := t.Config.TaskAlias
	if alias == "" {
		alias = t.Name
	}
	hib := results.NewOrderedMap[bool]()
	ts.higherIsBetter(hib.Set)
	nshot := t.NumFewshot
	if nshot == 0 {
		if v, ok := t.Config.Metadata["num_fewshot"]; ok {
			if n, ok := v.(int); ok {
				nshot = n
			}
		}
	}
	e := out.AddTask(results.Task{
		Name: t.Name, Alias: alias, Version: taskVersion(t), NShot: nshot,
		Config: dumpConfig(t), HigherIsBetter: hib,
		NSamples:  results.NSamples{Original: t.NumEvalDocs, Effective: len(t.Docs)},
		SampleLen: r.size,
	})
	for _, k := range r.keys {
		se := r.stderr[k]
		results.SetMetric(e, k.metric, k.filter, r.value[k], se.Value, se.OK)
	}
}

// dumpConfig is the task's configuration as lm-eval's dump_config records
// it: the YAML keys after includes and overrides, with the settings the
// run decided filled in, and native functions by name.
func dumpConfig(t *task.Task) map[string]any {
	c := t.Config
	out := map[string]any{}
	for k, v := range c.Raw {
		if k == "class" {
			continue // not a TaskConfig field
		}
		out[k] = configValue(v)
	}
	out["task"] = t.Name
	out["output_type"] = string(c.OutputType)
	out["num_fewshot"] = t.NumFewshot
	out["target_delimiter"] = c.TargetDelimiter
	out["fewshot_delimiter"] = c.FewshotDelimiter
	repeats := c.Repeats
	if repeats == 0 {
		repeats = 1
	}
	out["repeats"] = repeats
	out["should_decontaminate"] = c.ShouldDecontaminate
	switch {
	case c.Class != nil:
		// The config's, which a class's own requests need not use.
		out["generation_kwargs"] = configValue(c.GenerationKwargs)
	case c.OutputType == task.OutputGenerateUntil && len(t.Instances) > 0:
		out["generation_kwargs"] = configValue(t.Instances[0].GenKwargs)
	}
	if c.Metadata != nil {
		out["metadata"] = configValue(c.Metadata)
	}
	return out
}

// configValue is a configuration value as the results record it: native
// functions by their `!function` tag, floats as Python writes them; it
// copies maps and lists.
func configValue(v any) any {
	switch x := v.(type) {
	case *task.Func:
		return x.String()
	case task.FuncRef:
		return x.String()
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = configValue(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = configValue(e)
		}
		return l
	case []map[string]any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = configValue(e)
		}
		return l
	case float64:
		return results.Float(x)
	}
	return v
}

// fillConfig adds the run's settings, dates and lmeval's own facts.
func (w *Workload) fillConfig(out *results.Results) {
	p := w.plan
	cfg := p.cfg
	c := results.Config{
		Model:          cfg.Model,
		ModelArgs:      modelArgsString(cfg.ModelArgs),
		BatchSizes:     []int{},
		BootstrapIters: cfg.BootstrapIters,
		RandomSeed:     cfg.Seeds.Random,
		NumpySeed:      cfg.Seeds.NumPy,
		TorchSeed:      cfg.Seeds.Torch,
		FewshotSeed:    cfg.Seeds.Fewshot,
	}
	if cfg.BatchSize.Auto {
		c.BatchSize = cfg.BatchSize.String()
	} else {
		c.BatchSize = cfg.BatchSize.Size
	}
	if cfg.Device.Name != "" {
		d := cfg.Device.Name
		c.Device = &d
	}
	if cfg.UseCache != "" {
		u := cfg.UseCache
		c.UseCache = &u
	}
	switch {
	case cfg.Limit.Fraction > 0:
		c.Limit = cfg.Limit.Fraction
	case cfg.Limit.Count > 0:
		c.Limit = float64(cfg.Limit.Count)
	}
	if len(cfg.GenKwargs) > 0 {
		c.GenKwargs = cfg.GenKwargs
	}
	out.Config = c
	out.Date = results.Float(float64(p.start.UnixNano()) / 1e9)
	out.TotalEvalTime = pyval.FloatRepr(p.opts.now().Sub(p.start).Seconds())
	w.fillIdentity(out)
	out.LMEval = lmevalBlock(w.lm, w.modelTime)
	out.LMEval.PredictOnly = cfg.PredictOnly
	w.gens.report(out.LMEval, p.runs)
	out.LMEval.TaskFiles = map[string]string{}
	for _, tr := range p.runs {
		out.LMEval.TaskFiles[tr.t.Name] = TaskFileLabel(tr.t.Config.File)
		if tr.problems.Any() {
			if out.LMEval.DataProblems == nil {
				out.LMEval.DataProblems = map[string]results.DataProblems{}
			}
			out.LMEval.DataProblems[tr.t.Name] = tr.problems
		}
	}
}

// fillIdentity adds what lm-eval's GeneralConfigTracker records: the
// model's source (the --model backend) and name (results.ModelName), the
// system instruction, fewshot_as_multiturn and the chat template, with
// their SHA-256.
func (w *Workload) fillIdentity(out *results.Results) {
	cfg := w.plan.cfg
	out.ModelSource = cfg.Model
	out.ModelName = results.ModelName(cfg.ModelArgs)
	out.ModelNameSanitized = results.SanitizeModelName(out.ModelName)
	if s := cfg.SystemInstruction; s != "" {
		h := results.HashString(s)
		out.SystemInstruction, out.SystemInstructionSha = &s, &h
	}
	out.FewshotAsMultiturn = cfg.FewshotAsMultiturnValue()
	if cfg.ChatTemplate.Enabled {
		if src, ok := model.As[model.ChatTemplateSource](w.lm); ok {
			if t, err := src.ChatTemplate(cfg.ChatTemplate.Name); err == nil && t.Source != "" {
				h := results.HashString(t.Source)
				out.ChatTemplate, out.ChatTemplateSha = &t.Source, &h
			}
		}
	}
}

// modelArgsString writes model_args back as k=v,k=v (sorted by key).
func modelArgsString(args map[string]string) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + args[k]
	}
	return strings.Join(parts, ",")
}

// lmevalBlock fills lmeval's own facts from the model's Describe, with the
// model file's sha256 from its FileHasher (waiting for it).
func lmevalBlock(lm model.LM, modelTime time.Duration) *results.LMEval {
	b := &results.LMEval{}
	info, ok := DescribeModel(lm)
	if !ok {
		return b
	}
	sec := info.Sections()
	b.Model, b.Engine, b.Extra = sec[model.SectionModel], sec[model.SectionEngine], sec[model.SectionExtra]
	if len(b.Extra) == 0 {
		b.Extra = nil
	}
	b.LlamaCppCommit = info.EngineCommit
	if w := info.Work; w != nil {
		b.TokensDecoded, b.PromptTokens, b.Truncated = w.TokensDecoded, w.TokensRequested, w.Truncated
		if s := modelTime.Seconds(); s > 0 {
			b.TokensPerSec = results.Float(float64(w.TokensDecoded) / s)
		}
	}
	return b
}

// higherIsBetter calls set for each metric of the task, as lm-eval's
// higher_is_better(): the metric_list entries, then the keys that
// function metrics returned as a dict, each with its function's value.
func (ts *taskScores) higherIsBetter(set func(name string, hib bool)) {
	for _, s := range ts.run.specs {
		set(s.Name, s.HigherIsBetter)
	}
	ts.fnMu.Lock()
	defer ts.fnMu.Unlock()
	for _, s := range ts.run.specs {
		for _, k := range ts.fnKeys[s.Name] {
			set(k, s.HigherIsBetter)
		}
	}
}

// DescribeModel is lm's description (model.Describer) with the model
// file's sha256 from its FileHasher, waiting for it; ok is false when lm
// describes nothing.
func DescribeModel(lm model.LM) (info model.Description, ok bool) {
	d, ok := model.As[model.Describer](lm)
	if !ok {
		return model.Description{}, false
	}
	info = d.Describe()
	if info.File != nil && info.File.SHA256 == "" {
		if h, ok := model.As[model.FileHasher](lm); ok {
			info.File.SHA256, _ = h.SHA256() // a failure is logged where it happens
		}
	}
	return info, true
}
