// Package compare tells whether one evaluation run is really better than
// another on the same documents. It reads runs written with
// --log_samples (lmeval's or lm-eval's results_*.json and
// samples_<task>_*.jsonl), matches every document by task, doc_id and
// doc_hash (refusing runs whose documents, prompts or targets differ),
// and reports per task, metric and group each run's score and the paired
// statistics of package stats: the difference with its bootstrap and
// analytic intervals, McNemar's exact test or the paired t-test,
// clustered standard errors, the minimum detectable effect, and
// Holm-corrected p-values across tasks. Report is written as a table,
// JSON and a self-contained HTML page.
package compare

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/stats"
)

// Options set a comparison. Zero values take the defaults.
type Options struct {
	// Alpha is the significance level (default 0.05); intervals are at
	// 1-Alpha.
	Alpha float64
	// Power for the minimum detectable effect (default 0.8).
	Power float64
	// Iters is the number of bootstrap replicates (default 10,000;
	// negative: none).
	Iters int
	// Seed seeds the bootstrap (each task and metric gets its own stream
	// derived from it).
	Seed uint64
	// Cluster, when set, is the document field every task's and group's
	// documents are clustered by, instead of the defaults (Families for
	// tasks, the task for groups).
	Cluster string
	// Tasks, when set, keeps only these tasks and groups (a group keeps
	// its members).
	Tasks []string
	// Metrics, when set, keeps only these metrics (names without the
	// filter, such as acc or exact_match).
	Metrics []string
}

func (o Options) withDefaults() Options {
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.Power == 0 {
		o.Power = 0.8
	}
	if o.Iters == 0 {
		o.Iters = stats.DefaultIters
	}
	return o
}

// Report is the outcome of comparing runs: each later run against the
// first.
type Report struct {
	Alpha          float64       `json:"alpha"`
	Power          float64       `json:"power"`
	BootstrapIters int           `json:"bootstrap_iters"`
	Seed           uint64        `json:"seed"`
	Cluster        string        `json:"cluster,omitempty"`
	Runs           []RunInfo     `json:"runs"`
	Comparisons    []*Comparison `json:"comparisons"`
}

// RunInfo names a run in the report.
type RunInfo struct {
	Label string   `json:"label"`
	Path  string   `json:"path"`
	Files []string `json:"results_files"`
}

// Comparison is run B against run A (the first run).
type Comparison struct {
	A string `json:"a"`
	B string `json:"b"`
	// Tasks and Groups hold one row per task (or group) and metric.
	Tasks  []*Row `json:"tasks"`
	Groups []*Row `json:"groups,omitempty"`
	// HolmTasks and HolmGroups count the tests in each Holm family.
	HolmTasks  int `json:"holm_tests"`
	HolmGroups int `json:"holm_group_tests"`
	// Notes says what could not be compared and why.
	Notes []string `json:"notes,omitempty"`
}

// Weightings of a group's documents.
const (
	// Pooled: the group's score is the mean over all its documents
	// (lm-eval's weight_by_size at every level), so the documents are
	// tested as one paired sample.
	Pooled = "pooled"
	// Stratified: the group averages its tasks' scores with other
	// weights; the tasks are independent strata.
	Stratified = "stratified"
)

// Row is one task's (or group's) metric in a comparison.
type Row struct {
	Name   string `json:"name"`
	Group  bool   `json:"group,omitempty"`
	Metric string `json:"metric"`
	Filter string `json:"filter"`
	// HigherIsBetter from the results (nil: not known).
	HigherIsBetter *bool `json:"higher_is_better"`
	// Each run's score and standard error as its results file gives them.
	ValueA  stats.Number `json:"value_a"`
	ValueB  stats.Number `json:"value_b"`
	StderrA stats.Number `json:"stderr_a"`
	StderrB stats.Number `json:"stderr_b"`
	// Paired are the paired statistics (nil when the metric has no
	// per-document values that average to its score).
	Paired *stats.Result `json:"paired,omitempty"`
	// Weighting of a group's documents (Pooled or Stratified).
	Weighting string `json:"weighting,omitempty"`
	// ClusterKey is what the documents were clustered by.
	ClusterKey string `json:"cluster_key,omitempty"`
	// PHolm is the p-value corrected over the comparison's tasks (or
	// groups) by Holm's method; Significant when below Alpha.
	PHolm       stats.Number `json:"p_holm"`
	Significant bool         `json:"significant"`
	// Verdict says in words what the row shows.
	Verdict string `json:"verdict"`
	// Note explains a row without paired statistics.
	Note string `json:"note,omitempty"`
}

// Key is the row's "metric,filter".
func (r *Row) Key() string { return r.Metric + "," + r.Filter }

// Compare compares each of runs[1:] with runs[0].
func Compare(runs []*Run, o Options) (*Report, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("compare: need at least two runs, got %d", len(runs))
	}
	o = o.withDefaults()
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return nil, fmt.Errorf("compare: alpha %v is not between 0 and 1", o.Alpha)
	}
	if !(o.Power > 0 && o.Power < 1) {
		return nil, fmt.Errorf("compare: power %v is not between 0 and 1", o.Power)
	}
	rep := &Report{Alpha: o.Alpha, Power: o.Power, BootstrapIters: max(o.Iters, 0), Seed: o.Seed, Cluster: o.Cluster}
	// Runs of one model (other settings) share a model name: name them by
	// their paths then.
	count := map[string]int{}
	for _, r := range runs {
		count[r.Label]++
	}
	for _, r := range runs {
		if count[r.Label] > 1 {
			r.Label = r.Path
		}
	}
	for _, r := range runs {
		rep.Runs = append(rep.Runs, RunInfo{Label: r.Label, Path: r.Path, Files: r.Files})
	}
	for _, b := range runs[1:] {
		c, err := pair(runs[0], b, o)
		if err != nil {
			return nil, err
		}
		rep.Comparisons = append(rep.Comparisons, c)
	}
	return rep, nil
}

// pairing holds one comparison under construction.
type pairing struct {
	a, b *Run
	o    Options
	c    *Comparison
	// rows by task and key, for the groups.
	rows map[string]map[string]*Row
	// docs counts each task's documents (for group weights).
	docs map[string]int
	// pooled per-document scores of each task by key, for pooled groups.
	perDoc map[string]map[string][2][]float64
	// each task's matched documents (run A's, by doc_id).
	matched map[string][]*results.Sample
}

func pair(a, b *Run, o Options) (*Comparison, error) {
	p := &pairing{a: a, b: b, o: o, c: &Comparison{A: a.Label, B: b.Label},
		rows: map[string]map[string]*Row{}, docs: map[string]int{},
		perDoc: map[string]map[string][2][]float64{}, matched: map[string][]*results.Sample{}}
	want := p.selected()
	for _, name := range a.TaskOrder {
		if want != nil && !want[name] {
			continue
		}
		tb, ok := b.Tasks[name]
		if !ok {
			p.note("%s: only in %s", name, a.Label)
			continue
		}
		if err := p.task(a.Tasks[name], tb); err != nil {
			return nil, err
		}
	}
	for _, name := range b.TaskOrder {
		if _, ok := a.Tasks[name]; !ok && (want == nil || want[name]) {
			p.note("%s: only in %s", name, b.Label)
		}
	}
	p.settingsNotes()
	holm(p.c.Tasks, o.Alpha, &p.c.HolmTasks)
	for _, g := range a.Results.GroupSubtasks.Keys() {
		if want != nil && !want[g] {
			continue
		}
		if _, ok := b.Results.GroupSubtasks.Get(g); !ok {
			continue
		}
		p.group(g)
	}
	holm(p.c.Groups, o.Alpha, &p.c.HolmGroups)
	for _, r := range append(slices.Clone(p.c.Tasks), p.c.Groups...) {
		r.Verdict = verdict(r)
	}
	return p.c, nil
}

// settingsNotes notes differences in how the runs scored their prompts
// that the documents' hashes cannot show: the context limit and the
// requests cut to fit it.
func (p *pairing) settingsNotes() {
	la, lb := p.a.LMEval, p.b.LMEval
	if la == nil || lb == nil {
		return
	}
	if ma, mb := fmt.Sprint(la.Engine["max_length"]), fmt.Sprint(lb.Engine["max_length"]); ma != mb {
		p.note("the runs' max_length differs (%s: %s, %s: %s): long prompts are cut differently", p.a.Label, ma, p.b.Label, mb)
	}
	for _, t := range p.a.TaskOrder {
		if _, ok := p.b.Tasks[t]; !ok {
			continue
		}
		if ta, tb := la.DataProblems[t].Truncated, lb.DataProblems[t].Truncated; ta != tb {
			p.note("%s: requests cut to fit the context: %d in %s, %d in %s; their scores may differ for that reason alone", t, ta, p.a.Label, tb, p.b.Label)
		}
	}
}

func (p *pairing) note(format string, args ...any) {
	p.c.Notes = append(p.c.Notes, fmt.Sprintf(format, args...))
}

// selected returns the tasks and groups Options.Tasks keeps (nil: all):
// the names given and everything below them.
func (p *pairing) selected() map[string]bool {
	if len(p.o.Tasks) == 0 {
		return nil
	}
	want := map[string]bool{}
	var add func(string)
	add = func(n string) {
		if want[n] {
			return
		}
		want[n] = true
		if subs, ok := p.a.Results.GroupSubtasks.Get(n); ok {
			for _, s := range subs {
				add(s)
			}
		}
	}
	for _, n := range p.o.Tasks {
		add(n)
	}
	return want
}

// match checks that two runs scored the same documents with the same
// prompts and targets, and returns run A's samples of the first filter.
func match(a, b *Run, ta, tb *Task) ([]*results.Sample, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("compare: %s and %s cannot be paired: task %s: %s", a.Label, b.Label, ta.Name, fmt.Sprintf(format, args...))
	}
	if !slices.Equal(sortedCopy(ta.Filters), sortedCopy(tb.Filters)) {
		return nil, fail("filters differ (%s: %s; %s: %s)", a.Label, strings.Join(ta.Filters, ", "), b.Label, strings.Join(tb.Filters, ", "))
	}
	if len(ta.Filters) == 0 {
		return nil, nil
	}
	f := ta.Filters[0]
	da, db := ta.Docs[f], tb.Docs[f]
	for i := 0; i < max(len(da), len(db)); i++ {
		switch {
		case i >= len(db) || (i < len(da) && da[i].DocID < db[i].DocID):
			return nil, fail("doc_id %d is in %s but not in %s (different --limit or --samples?)", da[i].DocID, a.Label, b.Label)
		case i >= len(da) || db[i].DocID < da[i].DocID:
			return nil, fail("doc_id %d is in %s but not in %s (different --limit or --samples?)", db[i].DocID, b.Label, a.Label)
		}
		x, y := da[i], db[i]
		switch {
		case x.DocHash != y.DocHash:
			return nil, fail("doc_id %d: the documents differ (doc_hash %.12s… vs %.12s…)", x.DocID, x.DocHash, y.DocHash)
		case x.PromptHash != y.PromptHash:
			return nil, fail("doc_id %d: the prompts differ (prompt_hash %.12s… vs %.12s…: few-shot examples, template, chat template or system instruction)", x.DocID, x.PromptHash, y.PromptHash)
		case x.TargetHash != y.TargetHash:
			return nil, fail("doc_id %d: the targets differ (target_hash %.12s… vs %.12s…)", x.DocID, x.TargetHash, y.TargetHash)
		}
	}
	return da, nil
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// task compares one task's metrics.
func (p *pairing) task(ta, tb *Task) error {
	docs, err := match(p.a, p.b, ta, tb)
	if err != nil {
		return err
	}
	name := ta.Name
	p.matched[name] = docs
	p.docs[name] = len(docs)
	p.rows[name] = map[string]*Row{}
	p.perDoc[name] = map[string][2][]float64{}
	ea, _ := p.a.Results.Results.Get(name)
	eb, _ := p.b.Results.Results.Get(name)
	clusters, clusterKey, err := p.taskClusters(name, docs)
	if err != nil {
		return err
	}
	for _, key := range p.metricKeys(ea, eb) {
		metric, filter, _ := strings.Cut(key, ",")
		row := p.newRow(name, false, metric, filter, ea, eb)
		p.c.Tasks = append(p.c.Tasks, row)
		p.rows[name][key] = row
		va, okA := perDocValues(ta.Docs[filter], metric)
		vb, okB := perDocValues(tb.Docs[filter], metric)
		switch {
		case !okA || !okB:
			row.Note = "no numeric per-document values (a corpus-level metric): difference only"
			continue
		case !stats.IsMean(va, float64(row.ValueA)) || !stats.IsMean(vb, float64(row.ValueB)):
			row.Note = "the score is not the mean of its per-document values (a corpus-level aggregation): difference only"
			continue
		}
		so := stats.Options{Alpha: p.o.Alpha, Power: p.o.Power, Iters: p.o.Iters, Seed: p.seed(name, key)}
		if clusters != nil {
			so.Clusters = clusters
			row.ClusterKey = clusterKey
		}
		r := stats.Compare(va, vb, so)
		row.Paired = &r
		p.perDoc[name][key] = [2][]float64{va, vb}
	}
	return nil
}

// taskClusters numbers a task's documents by their cluster: --cluster's
// field, else the task family's (Families).
func (p *pairing) taskClusters(task string, docs []*results.Sample) ([]int, string, error) {
	field, explicit := p.o.Cluster, p.o.Cluster != ""
	if !explicit {
		f, ok := familyField(task)
		if !ok {
			return nil, "", nil
		}
		field = f.Field
	}
	ids, ok, err := clusterIDs(task, docs, field, explicit)
	if err != nil || !ok {
		if err == nil && explicit {
			p.note("%s: no document has the field %q: not clustered", task, field)
		}
		return nil, "", err
	}
	return ids, field, nil
}

// seed derives the bootstrap stream of one task and metric.
func (p *pairing) seed(task, key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(task + "\x00" + key))
	return p.o.Seed ^ h.Sum64()
}

func (p *pairing) newRow(name string, group bool, metric, filter string, ea, eb *results.Entry) *Row {
	row := &Row{Name: name, Group: group, Metric: metric, Filter: filter,
		ValueA: number(ea, metric+","+filter), ValueB: number(eb, metric+","+filter),
		StderrA: number(ea, metric+"_stderr,"+filter), StderrB: number(eb, metric+"_stderr,"+filter)}
	if hib, ok := p.a.Results.HigherIsBetter[name]; ok {
		if v, ok := hib.Get(metric); ok {
			if b, ok := v.(bool); ok {
				row.HigherIsBetter = &b
			}
		}
	}
	return row
}

// metricKeys lists the "metric,filter" keys both entries score, in a's
// order, of the metrics Options.Metrics keeps.
func (p *pairing) metricKeys(ea, eb *results.Entry) []string {
	var keys []string
	if ea == nil || eb == nil {
		return nil
	}
	for _, k := range ea.Keys() {
		metric, _, ok := strings.Cut(k, ",")
		if !ok || strings.HasSuffix(metric, "_stderr") {
			continue
		}
		if len(p.o.Metrics) > 0 && !slices.Contains(p.o.Metrics, metric) {
			continue
		}
		if _, ok := eb.Get(k); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// number reads an entry's numeric value (NaN when absent or not a
// number).
func number(e *results.Entry, key string) stats.Number {
	if e == nil {
		return stats.Number(math.NaN())
	}
	v, _ := e.Get(key)
	if f, ok := asFloat(v); ok {
		return stats.Number(f)
	}
	return stats.Number(math.NaN())
}

// asFloat reads a number of a results or samples file: what
// metrics.Float reads, and null (Python's NaN) as NaN.
func asFloat(v any) (float64, bool) {
	if v == nil {
		return math.NaN(), true
	}
	f, err := metrics.Float(v)
	return f, err == nil
}

// perDocValues are a metric's per-document values (NaN for a missing
// number, as Python's NaN reads); false when some value is not a number.
func perDocValues(docs []*results.Sample, metric string) ([]float64, bool) {
	if len(docs) == 0 {
		return nil, false
	}
	out := make([]float64, len(docs))
	for i, s := range docs {
		v, ok := s.Metrics.Get(metric)
		if !ok {
			return nil, false
		}
		f, ok := asFloat(v)
		if !ok {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// holm corrects the rows' p-values as one family.
func holm(rows []*Row, alpha float64, tests *int) {
	ps := make([]float64, len(rows))
	for i, r := range rows {
		ps[i] = math.NaN()
		if r.Paired != nil {
			ps[i] = r.Paired.P
		}
		if !math.IsNaN(ps[i]) {
			*tests++
		}
	}
	adj := stats.Holm(ps)
	for i, r := range rows {
		r.PHolm = stats.Number(adj[i])
		r.Significant = adj[i] < alpha
	}
}

// verdict says in words what a row shows.
func verdict(r *Row) string {
	switch {
	case r.Paired == nil:
		return "not tested (" + strings.SplitN(r.Note, " (", 2)[0] + ")"
	case r.Paired.N == 0:
		return "not tested (no document scored in both runs)"
	case r.Paired.McNemar != nil && r.Paired.McNemar.B+r.Paired.McNemar.C == 0,
		math.IsNaN(r.Paired.P) && r.Paired.Diff == 0 && r.Paired.SE == 0:
		return "no difference (every document scored the same)"
	case math.IsNaN(r.Paired.P):
		return "not tested (too few documents)"
	case !r.Significant:
		return "no significant difference"
	}
	up := r.Paired.Diff > 0
	if r.HigherIsBetter == nil {
		if up {
			return "B significantly higher"
		}
		return "B significantly lower"
	}
	if up == *r.HigherIsBetter {
		return "B significantly better"
	}
	return "B significantly worse"
}
