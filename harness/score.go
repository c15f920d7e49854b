package harness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/pyval"
)

// taskScores is one task's answers and scores: the score stage's state.
type taskScores struct {
	run *taskRun
	// Per document (position in the task's Docs): the responses of each
	// instance (one per repeat), the answers still missing, and the
	// per-filter scores once complete.
	resps   [][][]any
	pending []int
	scores  [][]docScore
	// fnKeys are the keys function metrics returned as a dict, by
	// metric, in first-seen order (lm-eval gives each the function's
	// higher_is_better and aggregation).
	fnMu   sync.Mutex
	fnKeys map[string][]string

	samples SampleWriter
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

func newTaskScores(tr *taskRun) *taskScores {
	n := len(tr.t.Docs)
	ts := &taskScores{run: tr, resps: make([][][]any, n), pending: make([]int, n), scores: make([][]docScore, n)}
	for p, ins := range tr.insts {
		ts.resps[p] = make([][]any, len(ins))
		for j, in := range ins {
			r := max(in.Repeats, 1)
			ts.resps[p][j] = make([]any, r)
			ts.pending[p] += r
		}
	}
	return ts
}

// complete filters a document's answers through each of the task's
// pipelines, scores them and writes the samples (lm-eval's apply_filters
// and the process_results loop of evaluate).
func (s *Scorer) complete(ctx context.Context, ts *taskScores, p int) error {
	tr := ts.run
	t := tr.t
	d := t.Docs[p]
	ins := tr.insts[p]
	docs := make([]map[string]any, len(ins))
	for j := range docs {
		docs[j] = d.Doc
	}
	if tr.hasFuncs && s.w.plan.cfg.ConfirmRunUnsafeCode {
		// The function metrics that run the model's programs may, in this
		// evaluation.
		ctx = codeexec.WithConsent(ctx, s.w.plan.consent())
	}
	ts.scores[p] = make([]docScore, len(tr.pipelines))
	for fi, pl := range tr.pipelines {
		filtered, err := pl.Apply(ts.resps[p], docs)
		if err != nil {
			return fmt.Errorf("task %s, document %d: %w", t.Name, d.ID, err)
		}
		sc, err := ts.score(ctx, d, filtered)
		if err != nil {
			return fmt.Errorf("task %s, document %d, filter %s: %w", t.Name, d.ID, pl.Name, err)
		}
		if ts.samples != nil {
			smp := ts.sample(p, pl.Name, filtered, sc)
			s.w.gens.annotate(smp, ts, p)
			sc.hashes = smp.DocHash + smp.PromptHash + smp.TargetHash
			if err := ts.samples.Write(smp); err != nil {
				return err
			}
		}
		ts.scores[p][fi] = sc
	}
	return nil
}

// score computes one document's metric values from its filtered answers
// (one per instance), as lm-eval's ConfigurableTask.process_results.
func (ts *taskScores) score(ctx context.Context, d *task.DocInfo, filtered []any) (docScore, error) {
	tr := ts.run
	t := tr.t
	if tr.native {
		m, _, err := t.ProcessResults(d.Doc, filtered)
		if err != nil {
			return docScore{}, err
		}
		return docScore{keys: nativeOrder(m, tr.specs), values: m}, nil
	}
	var (
		m   map[string]any
		err error
	)
	switch t.Config.OutputType {
	case task.OutputMultipleChoice:
		n := len(d.Choices)
		if len(filtered) != n && len(filtered) != 2*n {
			return docScore{}, fmt.Errorf("%d answers for %d choices", len(filtered), n)
		}
		r := metrics.MultipleChoiceResult{Choices: d.Choices, LogLiks: make([]float64, n), IsGreedy: make([]bool, n)}
		for i, v := range filtered {
			ll, ok := v.(model.LoglikelihoodResult)
			if !ok {
				return docScore{}, fmt.Errorf("answer %d: want a log-likelihood, got %T (a filter changed it)", i, v)
			}
			if i < n {
				r.LogLiks[i], r.IsGreedy[i] = ll.LogProb, ll.IsGreedy
			} else {
				r.Unconditional = append(r.Unconditional, ll.LogProb)
			}
		}
		if d.Golds != nil {
			r.Gold, r.Multiple = d.Golds, true
		} else {
			r.Gold = []int{d.Gold}
		}
		if m, err = metrics.ScoreMultipleChoice(tr.specs, r); err != nil {
			return docScore{}, err
		}
		keys := pyval.SortedKeys(m)
		sort.SliceStable(keys, func(a, b int) bool { return rank(keys[a]) < rank(keys[b]) })
		return docScore{keys: keys, values: m}, nil
	case task.OutputLoglikelihood:
		ll, ok := first(filtered).(model.LoglikelihoodResult)
		if !ok {
			return docScore{}, fmt.Errorf("want a log-likelihood, got %T", first(filtered))
		}
		m = metrics.ScoreLoglikelihood(tr.specs, ll.LogProb, ll.IsGreedy)
	case task.OutputLoglikelihoodRolling:
		rr, ok := first(filtered).(model.RollingResult)
		if !ok {
			return docScore{}, fmt.Errorf("want a rolling log-likelihood, got %T", first(filtered))
		}
		text, ok := d.Target.(string)
		if !ok {
			return docScore{}, fmt.Errorf("loglikelihood_rolling needs a string target, got %T", d.Target)
		}
		m = metrics.ScoreRolling(tr.specs, rr.LogProb, text)
	case task.OutputGenerateUntil:
		golds, multiple := generationGolds(d, tr.t.MultipleTarget)
		res := first(filtered)
		s, ok := res.(string)
		if !ok {
			s = pyval.Str(res)
		}
		if l, isList := res.([]any); isList {
			// A list answer (a filter pipeline without take_first):
			// lm-eval leaves the target uncast.
			gold := d.Target
			if i, ok := gold.(int); ok && d.Choices != nil && i >= 0 && i < len(d.Choices) {
				gold = d.Choices[i]
			}
			m, err = metrics.ScoreGenerationAnswer(tr.specs, golds, multiple, s, l, gold)
		} else {
			m, err = metrics.ScoreGeneration(tr.specs, golds, multiple, s)
		}
		if err != nil {
			return docScore{}, err
		}
		if tr.hasFuncs {
			return ts.scoreFuncs(ctx, d, res, m)
		}
	default:
		return docScore{}, fmt.Errorf("unknown output_type %q", t.Config.OutputType)
	}
	// Other output types report in metric_list order.
	var keys []string
	for _, s := range tr.specs {
		if _, ok := m[s.Name]; ok {
			keys = append(keys, s.Name)
		}
	}
	return docScore{keys: keys, values: m}, nil
}

// nativeOrder orders the metrics a native process_results returned as the
// Python function's dict would: its metric_list's order (lm-eval's
// helpers return their metrics in that order), then any others sorted.
func nativeOrder(m map[string]any, specs []metrics.Spec) []string {
	keys := make([]string, 0, len(m))
	listed := map[string]bool{}
	for _, s := range specs {
		if _, ok := m[s.Name]; ok && !listed[s.Name] {
			keys = append(keys, s.Name)
			listed[s.Name] = true
		}
	}
	rest := make([]string, 0, len(m)-len(keys))
	for k := range m {
		if !listed[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// scoreFuncs adds the function metrics of a generate_until document (a
// `metric: !function` port, or one of Hugging Face evaluate's) to the
// built-in ones in m, as lm-eval's process_results: each is called with
// references=[gold] and predictions=[result] (result unstringified: a
// list of programs stays a list, a mapped label an int), and a dict
// result contributes each of its keys in place of the function's name.
// With several targets, exact_match is called once on all of them and
// the others once per target; the document scores 1 when any matched.
func (ts *taskScores) scoreFuncs(ctx context.Context, d *task.DocInfo, result any, m map[string]any) (docScore, error) {
	tr := ts.run
	gold, multiple, err := tr.pyGold(d, result)
	if err != nil {
		return docScore{}, err
	}
	var keys []string
	for _, s := range tr.specs {
		fn := s.Func
		if fn == nil {
			if _, ok := m[s.Name]; ok {
				keys = append(keys, s.Name)
			}
			continue
		}
		if multiple {
			v, err := multipleTargetScore(ctx, fn, s, gold.([]any), result)
			if err != nil {
				return docScore{}, fmt.Errorf("metric %s: %w", s.Name, err)
			}
			m[s.Name] = v
			keys = append(keys, s.Name)
			continue
		}
		v, err := fn(ctx, []any{gold}, []any{result}, s.Kwargs)
		if err != nil {
			return docScore{}, fmt.Errorf("metric %s: %w", s.Name, err)
		}
		if dict, ok := v.(metrics.Values); ok {
			ts.fnMu.Lock()
			if ts.fnKeys == nil {
				ts.fnKeys = map[string][]string{}
			}
			for _, it := range dict {
				m[it.Name] = it.Value
				keys = append(keys, it.Name)
				if !slices.Contains(ts.fnKeys[s.Name], it.Name) {
					ts.fnKeys[s.Name] = append(ts.fnKeys[s.Name], it.Name)
				}
			}
			ts.fnMu.Unlock()
			continue
		}
		m[s.Name] = v
		keys = append(keys, s.Name)
	}
	return docScore{keys: keys, values: m}, nil
}

// pyGold is the gold value lm-eval's process_results hands a metric
// function: the choice a doc_to_choice task's index names, a list for
// several targets, else doc_to_target's value cast to the answer's type
// (type(result)(gold), unless the answer is a list or a metric is
// bypass).
func (tr *taskRun) pyGold(d *task.DocInfo, result any) (gold any, multiple bool, err error) {
	gold = d.Target
	if d.Choices != nil {
		i, ok := gold.(int)
		if !ok {
			return nil, false, fmt.Errorf("doc_to_choice is set, so doc_to_target must give an index, got %s", pyval.Repr(gold))
		}
		if i < 0 {
			i += len(d.Choices)
		}
		if i < 0 || i >= len(d.Choices) {
			return nil, false, fmt.Errorf("IndexError: target index %v for %d choices", d.Target, len(d.Choices))
		}
		return d.Choices[i], false, nil
	}
	if l, ok := gold.([]any); ok {
		return l, true, nil
	}
	if _, isList := result.([]any); isList {
		return gold, false, nil
	}
	for _, s := range tr.specs {
		if s.Name == "bypass" {
			return gold, false, nil
		}
	}
	switch result.(type) {
	case string:
		if _, ok := gold.(string); !ok {
			gold = pyval.Str(gold)
		}
	case int, int64:
		switch gold.(type) {
		case int, int64:
		default:
			n, err := pyval.Int(gold)
			if err != nil {
				return nil, false, fmt.Errorf("casting the target %s to the answer's type int: %w", pyval.Repr(gold), err)
			}
			gold = int(n)
		}
	case float64:
		if _, ok := gold.(float64); !ok {
			f, err := pyval.Float(gold)
			if err != nil {
				return nil, false, fmt.Errorf("casting the target %s to the answer's type float: %w", pyval.Repr(gold), err)
			}
			gold = f
		}
	case bool:
		if _, ok := gold.(bool); !ok {
			gold = pyval.Truthy(gold)
		}
	case nil:
		if gold != nil {
			return nil, false, fmt.Errorf("TypeError: the answer is None, and lm-eval casts the target to its type (NoneType(%s))", pyval.Repr(gold))
		}
	}
	return gold, false, nil
}

// multipleTargetScore is lm-eval's multiple_target loop for one metric
// function.
func multipleTargetScore(ctx context.Context, fn metrics.Func, s metrics.Spec, golds []any, result any) (float64, error) {
	pick := func(v any) (any, error) {
		if dict, ok := v.(metrics.Values); ok {
			for _, it := range dict {
				if it.Name == s.Name {
					return it.Value, nil
				}
			}
			return nil, fmt.Errorf("KeyError: %q (the function's dict has no key named after the metric, which lm-eval reads with several targets)", s.Name)
		}
		return v, nil
	}
	if s.Name == "exact_match" {
		preds := make([]any, len(golds))
		for i := range preds {
			preds[i] = result
		}
		v, err := fn(ctx, golds, preds, s.Kwargs)
		if err != nil {
			return 0, err
		}
		if v, err = pick(v); err != nil {
			return 0, err
		}
		f, err := metrics.Float(v)
		if err != nil {
			return 0, err
		}
		if f > 0 {
			return 1, nil
		}
		return 0, nil
	}
	hit := false
	for _, g := range golds {
		v, err := fn(ctx, []any{g}, []any{result}, s.Kwargs)
		if err != nil {
			return 0, err
		}
		if v, err = pick(v); err != nil {
			return 0, err
		}
		hit = hit || pyval.Truthy(v)
	}
	if hit {
		return 1, nil
	}
	return 0, nil
}

// rank is a metric's place in lm-eval's multiple-choice result dict
// (metrics.Metric.Rank); others follow, in name order.
func rank(k string) int {
	if m, ok := metrics.Lookup(k); ok && m.Rank > 0 {
		return m.Rank
	}
	return math.MaxInt
}

func first(l []any) any {
	if len(l) == 0 {
		return nil
	}
	return l[0]
}

// generationGolds is doc_to_target for a generate_until document: a task
// with doc_to_choice gives an index into the choices; a list is several
// acceptable answers.
func generationGolds(d *task.DocInfo, taskMultiple bool) ([]string, bool) {
	switch g := d.Target.(type) {
	case int:
		if d.Choices != nil && g >= 0 && g < len(d.Choices) {
			return []string{d.Choices[g]}, false
		}
	case []any:
		if !taskMultiple {
			// lm-eval's multiple_target comes from the first document: a
			// list target of a later one is cast to the result's type,
			// str(list).
			return []string{pyval.Str(g)}, false
		}
		out := make([]string, len(g))
		for i, e := range g {
			out[i] = pyval.Str(e)
		}
		return out, true
	}
	return []string{pyval.Str(d.Target)}, false
}

// sample is one document's record under one filter, as lm-eval logs it.
func (ts *taskScores) sample(p int, filter string, filtered []any, sc docScore) *results.Sample {
	tr := ts.run
	d := tr.t.Docs[p]
	ins := tr.insts[p]
	args := make([][]any, len(ins))
	resps := make([][]any, len(ins))
	// The generation kwargs in lm-eval's dict order.
	order := func(kw map[string]any) any { return results.OrderDoc(kw, pyval.ColumnsOf(tr.t.GenKwargsOrder...)) }
	for j := range ins {
		args[j] = ins[j].Arguments(order)
		resps[j] = make([]any, len(ts.resps[p][j]))
		for r, v := range ts.resps[p][j] {
			resps[j][r] = pyValue(v)
		}
	}
	fr := make([]any, len(filtered))
	for i, v := range filtered {
		fr[i] = pyValue(v)
	}
	m := results.NewOrderedMap[any]()
	for _, k := range sc.keys {
		m.Set(k, pyValue(sc.values[k]))
	}
	return results.NewSample(d.ID, results.OrderDoc(d.Doc, tr.t.Columns()), d.Target, args, resps, fr, filter, m)
}

// pyValue gives answers and per-document metric values the shapes lm-eval
// logs: (log-likelihood, is_greedy) tuples, (value, weight) pairs, ...
func pyValue(v any) any {
	switch x := v.(type) {
	case model.LoglikelihoodResult:
		return []any{x.LogProb, x.IsGreedy}
	case model.RollingResult:
		return x.LogProb
	case metrics.Weighted:
		return []any{x.LogLik, pyNum(x.Weight)}
	case metrics.Pair:
		return []any{x.Gold, x.Pred}
	case metrics.Brier:
		probs := make([]any, len(x.Probs))
		for i, p := range x.Probs {
			probs[i] = p
		}
		return []any{x.Gold, probs}
	case metrics.Likelihood:
		lls := make([]any, len(x.LogLiks))
		for i, l := range x.LogLiks {
			lls[i] = l
		}
		return []any{x.Gold, lls}
	case metrics.RefPred:
		refs := make([]any, len(x.Refs))
		for i, r := range x.Refs {
			refs[i] = r
		}
		return []any{refs, x.Pred}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pyValue(e)
		}
		return out
	case task.SampleValuer:
		return x.SampleValue()
	}
	return v
}

// pyNum writes a whole weight as Python's int would appear.
func pyNum(f float64) any {
	if f == float64(int64(f)) {
		return int64(f)
	}
	return f
}
