package task

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
)

// metricSpecs parses metric_list (as decoded from YAML, `!function`s
// resolved) into the task's metrics, as lm-eval's ConfigurableTask does
// when it is built (an absent or empty list gives none: the output type's
// defaults score the task, metrics.Defaults); an entry's metric is a name or a native function (named after
// the Python function: utils.pass_at_1 is pass_at_1, aggregated by mean
// unless the entry says otherwise), its aggregation a registered name or
// a native aggregation, higher_is_better a bool, and its other keys are
// the metric's keyword arguments. A metric lm-eval calls as
// fn(references, predictions) for a generate_until task without
// process_results (a function port of that signature, or Hugging Face
// evaluate's) gets Spec.Func.
func metricSpecs(list []any, outputType OutputType, processResults bool) ([]metrics.Spec, error) {
	if len(list) == 0 {
		return nil, nil
	}
	var out []metrics.Spec
	funcs := map[string]metrics.Func{} // the function metrics, by name
	for i, e := range list {
		entry, ok := e.(map[string]any)
		if !ok {
			continue // lm-eval's loop would fail on it; lmeval has always skipped it
		}
		s, fn, err := metricSpec(entry)
		if err != nil {
			return nil, fmt.Errorf("metric_list[%d]: %w", i, err)
		}
		if fn != nil && !processResults {
			if outputType != OutputGenerateUntil {
				return nil, fmt.Errorf("metric_list: function metric %s: only generate_until tasks are supported, not %s", s.Function, outputType)
			}
			funcs[s.Name] = fn
		}
		out = append(out, s)
	}
	for i := range out {
		s := &out[i]
		// Hugging Face evaluate's metrics: lm-eval calls their compute as
		// it calls a function metric.
		if s.Evaluate != nil && s.Doc == nil && outputType == OutputGenerateUntil && !processResults {
			funcs[s.Name] = s.Evaluate.Func()
		}
		// A function metric named like a registered one (t5_utils.f1)
		// is the function, not the registered metric.
		if _, fn := funcs[s.Name]; fn && s.Doc == nil {
			s.Registered = false
		}
	}
	for i := range out {
		out[i].Func = funcs[out[i].Name]
	}
	return out, nil
}

// metricSpec parses one metric_list entry; fn is its metric's native
// function when it is one lm-eval calls as fn(references, predictions).
func metricSpec(entry map[string]any) (s metrics.Spec, fn metrics.Func, err error) {
	var doc metrics.DocFunc
	name, isName := entry["metric"].(string)
	f, isFunc := entry["metric"].(*Func)
	switch {
	case isFunc:
		switch h := f.Hook; {
		case h.DocMetric != nil:
			doc = h.DocMetric
		case h.Metric != nil:
			// Called by the evaluator (Spec.Func); a name it shares with
			// a built-in metric (f1, chrf) must not run that one.
			doc, fn = metrics.Skip, h.Metric
		default:
			return s, nil, h.kindError("metric "+f.Name, HookMetric)
		}
		// lm-eval names the metric after the Python function.
		name = f.Name[strings.LastIndex(f.Name, ".")+1:]
	case !isName || name == "":
		return s, nil, fmt.Errorf("missing metric name")
	}
	s = metrics.NewSpec(name, entry["hf_evaluate"] == true)
	s.Doc = doc
	if isFunc {
		s.Function = f.Name
		if s, err = s.WithAggregation("mean"); err != nil {
			return s, nil, err
		}
	}
	for _, k := range sortedAnyKeys(entry) {
		v := entry[k]
		switch k {
		case "metric", "hf_evaluate":
		case "aggregation":
			agg, ok := v.(string)
			if a, isFunc := v.(*Func); isFunc {
				if a.Hook.Aggregation == nil {
					return s, nil, a.Hook.kindError("aggregation "+a.Name, HookAggregation)
				}
				agg, ok = a.Hook.Aggregation.Name, true
			}
			if !ok {
				return s, nil, fmt.Errorf("(%s): aggregation must name a registered aggregation, got %T", name, v)
			}
			if s, err = s.WithAggregation(agg); err != nil {
				return s, nil, fmt.Errorf("(%s): %w", name, err)
			}
		case "higher_is_better":
			b, ok := v.(bool)
			if !ok {
				return s, nil, fmt.Errorf("(%s): higher_is_better must be true or false, got %v", name, v)
			}
			s.HigherIsBetter = b
		default:
			s.Kwargs[k] = v
		}
	}
	if s.Aggregation == "" {
		return s, nil, fmt.Errorf("unknown metric %q and no aggregation given (known: %s)", name, strings.Join(metrics.Names(), ", "))
	}
	return s, fn, nil
}

// filterSpecs parses filter_list (a list of {name, filter: [{function,
// <kwargs>}, ...]}, or lm-eval's mapping of name to pipeline, taken in
// name order) into the task's filter pipelines; none gives lm-eval's
// default, "none" (take_first).
func filterSpecs(v any) ([]filters.Spec, error) {
	var list []any
	switch fl := v.(type) {
	case []any:
		list = fl
	case map[string]any:
		names := make([]string, 0, len(fl))
		for k := range fl {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			list = append(list, fl[k])
		}
	}
	var out []filters.Spec
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			continue // lmeval has always skipped it
		}
		name, _ := m["name"].(string)
		if name == "" {
			return nil, fmt.Errorf("filter_list[%d]: missing name", i)
		}
		steps, ok := m["filter"].([]any)
		if !ok {
			return nil, fmt.Errorf("filter_list[%d] (%s): \"filter\" must be a list of steps", i, name)
		}
		p := filters.Spec{Name: name}
		for j, st := range steps {
			sm, ok := st.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("filter_list[%d] (%s), step %d: want a mapping, got %T", i, name, j+1, st)
			}
			var step filters.Step
			switch fn := sm["function"].(type) {
			case string:
				step.Function = fn
			case *Func:
				if fn.Hook.Filter == nil {
					return nil, fn.Hook.kindError("filter "+fn.Name, HookFilter)
				}
				step.Function, step.Factory = fn.Name, fn.Hook.Filter
			}
			if step.Function == "" {
				return nil, fmt.Errorf("filter_list[%d] (%s), step %d: missing function", i, name, j+1)
			}
			step.Args = maps.Clone(sm)
			delete(step.Args, "function")
			if fn, ok := sm["filter_fn"].(*Func); ok {
				if fn.Hook.FilterFunc == nil {
					return nil, fn.Hook.kindError("filter_fn "+fn.Name, HookFilterFunc)
				}
				step.Func = fn.Hook.FilterFunc
				delete(step.Args, "filter_fn")
			}
			p.Steps = append(p.Steps, step)
		}
		out = append(out, p)
	}
	return out, nil
}
