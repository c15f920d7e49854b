package harness

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"lmeval/harness/metrics"
	"lmeval/harness/model"
	"lmeval/harness/pyval"
	"lmeval/harness/results"
	"lmeval/harness/task"
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
	size   int // lm-eval's "samples": the values of the last metric
}

// aggregate computes a task's metrics over its documents, in lm-eval's key
// order: filter by filter, metrics in the order the documents report them.
func (ev *evaluation) aggregate(ctx context.Context, tr *taskRun) (*taskResult, error) {
	items := map[metricKey][]any{}
	res := &taskResult{value: map[metricKey]float64{}, stderr: map[metricKey]metrics.StderrResult{}}
	for fi, pl := range tr.pipelines {
		for p := range tr.t.Docs {
			sc := tr.scores[p][fi]
			for _, m := range sc.keys {
				k := metricKey{m, pl.Name}
				if _, ok := items[k]; !ok {
					res.keys = append(res.keys, k)
				}
				items[k] = append(items[k], sc.values[m])
			}
		}
	}
	seed := uint64(1234)
	if s := ev.cfg.Seeds.NumPy; s != nil {
		seed = uint64(*s)
	}
	boot := metrics.Bootstrap{Iters: ev.cfg.BootstrapIters, Seed: seed}
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
func (ev *evaluation) report(ctx context.Context) (*results.Results, error) {
	taskRes := map[*taskRun]*taskResult{}
	for _, tr := range ev.runs {
		r, err := ev.aggregate(ctx, tr)
		if err != nil {
			return nil, err
		}
		taskRes[tr] = r
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
	for _, n := range ev.roots {
		if err := walk(n); err != nil {
			return nil, err
		}
	}

	out := results.New()
	hib := groupHigherIsBetter(ev.roots, taskRes, ev)
	// prepare_print_tasks: names sorted at each level, depth first, with
	// "- " indentation below the top level.
	var emit func(nodes []*node, depth int)
	emit = func(nodes []*node, depth int) {
		sorted := append([]*node(nil), nodes...)
		sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].name < sorted[b].name })
		tab := ""
		if depth > 0 {
			tab = strings.Repeat(" ", depth) + "- "
		}
		for _, n := range sorted {
			if n.run != nil {
				ev.addTask(out, n.run, taskRes[n.run], tab)
				continue
			}
			g := n.group
			alias := g.Alias
			if alias == "" {
				alias = g.Name
			}
			r, aggregated := groupRes[n]
			subs := make([]string, len(n.children))
			for i, c := range n.children {
				subs[i] = c.name
			}
			var version any
			if aggregated {
				version = g.Version()
			}
			e := out.AddGroup(results.Group{Name: g.Name, Alias: tab + alias, Version: version, Subtasks: subs,
				HigherIsBetter: hib, Aggregated: aggregated})
			if aggregated {
				for _, k := range r.keys {
					se := r.stderr[k]
					results.SetMetric(e, k.metric, k.filter, r.value[k], se.Value, se.OK)
				}
			}
			// lm-eval adds a group's alias after its metrics.
			a, _ := e.Get("alias")
			e.Delete("alias")
			e.Set("alias", a)
			emit(n.children, depth+1)
		}
	}
	emit(ev.roots, 0)

	// group_subtasks: lm-eval's get_subtask_list (groups in pre-order,
	// top-level tasks with no subtasks), reversed.
	type entry struct {
		name string
		subs []string
	}
	var list []entry
	var pre func(n *node, top bool)
	pre = func(n *node, top bool) {
		if n.run != nil {
			if top {
				list = append(list, entry{n.name, []string{}})
			}
			return
		}
		subs := make([]string, len(n.children))
		for i, c := range n.children {
			subs[i] = c.name
		}
		list = append(list, entry{n.name, subs})
		for _, c := range n.children {
			pre(c, false)
		}
	}
	for _, n := range ev.roots {
		pre(n, true)
	}
	out.GroupSubtasks = results.NewOrderedMap[[]string]()
	for i := len(list) - 1; i >= 0; i-- {
		out.GroupSubtasks.Set(list[i].name, list[i].subs)
	}
	// n-samples in evaluation order.
	ns := results.NewOrderedMap[results.NSamples]()
	for _, tr := range ev.runs {
		ns.Set(tr.t.Name, results.NSamples{Original: tr.t.NumEvalDocs, Effective: len(tr.t.Docs)})
	}
	out.NSamples = ns
	return out, nil
}

// aggregateGroup is lm-eval's consolidate_group_results for one group with
// an aggregate_metric_list: each listed metric and filter averaged over the
// group's tasks (nested ones included), size-weighted or not, with the
// pooled standard error.
func aggregateGroup(n *node, taskRes map[*taskRun]*taskResult) (*taskResult, error) {
	var leaves []*taskRun
	var collect func(n *node)
	collect = func(n *node) {
		if n.run != nil {
			leaves = append(leaves, n.run)
		}
		for _, c := range n.children {
			collect(c)
		}
	}
	collect(n)
	res := &taskResult{value: map[metricKey]float64{}, stderr: map[metricKey]metrics.StderrResult{}}
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
		}
	}
	return res, nil
}

// groupHigherIsBetter reproduces lm-eval's group higher_is_better: one
// dictionary, shared by every group, of the metrics of the groups' direct
// subtasks (first value seen wins).
func groupHigherIsBetter(roots []*node, taskRes map[*taskRun]*taskResult, ev *evaluation) *results.OrderedMap[bool] {
	m := results.NewOrderedMap[bool]()
	var walk func(n *node)
	walk = func(n *node) {
		if n.group == nil {
			return
		}
		for _, c := range n.children {
			if c.run != nil {
				for _, s := range c.run.specs {
					if _, ok := m.Get(s.Name); !ok {
						m.Set(s.Name, s.HigherIsBetter)
					}
				}
			}
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, n := range roots {
		walk(n)
	}
	return m
}

// addTask adds one task's row and its facts.
func (ev *evaluation) addTask(out *results.Results, tr *taskRun, r *taskResult, tab string) {
	t := tr.t
	alias := t.Config.TaskAlias
	if alias == "" {
		alias = t.Name
	}
	hib := results.NewOrderedMap[bool]()
	for _, s := range tr.specs {
		hib.Set(s.Name, s.HigherIsBetter)
	}
	nshot := t.NumFewshot
	if nshot == 0 {
		if v, ok := t.Config.Metadata["num_fewshot"]; ok {
			if n, ok := v.(int); ok {
				nshot = n
			}
		}
	}
	e := out.AddTask(results.Task{
		Name: t.Name, Alias: tab + alias, Version: t.Config.Version(), NShot: nshot,
		Config: dumpConfig(t), HigherIsBetter: hib,
		NSamples: results.NSamples{Original: t.NumEvalDocs, Effective: len(t.Docs)},
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
		out[k] = configValue(v)
	}
	out["task"] = t.Name
	out["output_type"] = c.OutputType
	out["num_fewshot"] = t.NumFewshot
	out["target_delimiter"] = c.TargetDelimiter
	out["fewshot_delimiter"] = c.FewshotDelimiter
	repeats := c.Repeats
	if repeats == 0 {
		repeats = 1
	}
	out["repeats"] = repeats
	out["should_decontaminate"] = c.ShouldDecontaminate
	if c.OutputType == task.OutputGenerateUntil && len(t.Instances) > 0 {
		out["generation_kwargs"] = configValue(t.Instances[0].GenKwargs)
	}
	if c.Metadata != nil {
		out["metadata"] = configValue(c.Metadata)
	}
	return out
}

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
func (ev *evaluation) fillConfig(out *results.Results, start time.Time, modelTime time.Duration) {
	cfg := ev.cfg
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
	out.Date = results.Float(float64(start.UnixNano()) / 1e9)
	out.TotalEvalTime = pyval.FloatRepr(ev.opts.now().Sub(start).Seconds())
	out.LMEval = lmevalBlock(ev.lm, modelTime)
	out.LMEval.PredictOnly = cfg.PredictOnly
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

// Keys of a Describer's map that go to the lmeval block's model and engine
// sections.
var (
	modelFacts = []string{"backend", "model_path", "model_name", "architecture", "file_type", "params",
		"file_size", "bits_per_weight", "n_ctx_train", "vocab_size", "sha256", "fingerprint", "seed"}
	engineFacts = []string{"n_ctx", "max_length", "n_batch", "n_ubatch", "n_seq_max", "threads",
		"n_gpu_layers", "device", "devices", "n_ctx_max", "cache_growths", "flash_attn", "type_k", "type_v", "add_bos_token"}
)

// lmevalBlock fills lmeval's own facts from the model's Describe.
func lmevalBlock(lm model.LM, modelTime time.Duration) *results.LMEval {
	b := &results.LMEval{}
	d, ok := lm.(model.Describer)
	if !ok {
		return b
	}
	desc := d.Describe()
	b.Model, b.Engine, b.Extra = map[string]any{}, map[string]any{}, map[string]any{}
	used := map[string]bool{}
	for _, k := range modelFacts {
		if v, ok := desc[k]; ok {
			b.Model[k], used[k] = v, true
		}
	}
	for _, k := range engineFacts {
		if v, ok := desc[k]; ok {
			b.Engine[k], used[k] = v, true
		}
	}
	if v, ok := desc["llama_cpp_commit"].(string); ok {
		b.LlamaCppCommit, used["llama_cpp_commit"] = v, true
	}
	if n, ok := toInt64(desc["tokens_decoded"]); ok {
		b.TokensDecoded, used["tokens_decoded"] = n, true
		if s := modelTime.Seconds(); s > 0 {
			b.TokensPerSec = results.Float(float64(n) / s)
		}
	}
	if n, ok := toInt64(desc["tokens_requested"]); ok {
		b.PromptTokens, used["tokens_requested"] = n, true
	}
	if n, ok := toInt64(desc["truncated"]); ok {
		b.Truncated, used["truncated"] = int(n), true
	}
	for k, v := range desc {
		if !used[k] {
			b.Extra[k] = v
		}
	}
	if len(b.Extra) == 0 {
		b.Extra = nil
	}
	return b
}

func toInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case uint64:
		return int64(x), true
	case uint32:
		return int64(x), true
	case float64:
		return int64(x), true
	}
	return 0, false
}
