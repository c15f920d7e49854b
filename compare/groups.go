package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/stats"
)

// leaf is a task under a group with its weight in the group's score.
type leaf struct {
	task   string
	weight float64
}

// groupWeights works out how group g's score for key averages its
// members, from the numbers themselves (results files do not record a
// group's weight_by_size): at each level the members' size-weighted mean
// or their plain mean must reproduce the group's score in both runs. It
// returns the leaf tasks with their weights, the group's document count,
// whether every level is size-weighted (the score is the mean over all
// documents), or why the group cannot be compared per document.
func (p *pairing) groupWeights(g, key string) (leaves []leaf, size int, pooled bool, why string) {
	subs, _ := p.a.Results.GroupSubtasks.Get(g)
	type member struct {
		name   string
		vA, vB float64
		size   int
		leaves []leaf
		pooled bool
	}
	var ms []member
	for _, c := range subs {
		if _, isTask := p.a.Tasks[c]; isTask {
			rows, ok := p.rows[c]
			if !ok {
				return nil, 0, false, fmt.Sprintf("its task %s is not in both runs", c)
			}
			row, ok := rows[key]
			if !ok {
				continue // lm-eval leaves members without the metric out
			}
			if row.Paired == nil {
				return nil, 0, false, fmt.Sprintf("its task %s has no per-document values", c)
			}
			ms = append(ms, member{c, float64(row.ValueA), float64(row.ValueB), p.docs[c], []leaf{{c, 1}}, true})
			continue
		}
		ea, _ := p.a.Results.Results.Get(c)
		eb, _ := p.b.Results.Results.Get(c)
		if ea == nil || eb == nil {
			return nil, 0, false, fmt.Sprintf("its member %s is not in both runs", c)
		}
		if _, ok := ea.Get(key); !ok {
			continue
		}
		ls, n, pl, why := p.groupWeights(c, key)
		if why != "" {
			return nil, 0, false, why
		}
		ms = append(ms, member{c, float64(number(ea, key)), float64(number(eb, key)), n, ls, pl})
	}
	if len(ms) == 0 {
		return nil, 0, false, "no member scores " + key
	}
	ea, _ := p.a.Results.Results.Get(g)
	eb, _ := p.b.Results.Results.Get(g)
	gA, gB := float64(number(ea, key)), float64(number(eb, key))
	total := 0
	for _, m := range ms {
		total += m.size
	}
	micro := func(f func(member) float64) float64 {
		s := 0.0
		for _, m := range ms {
			s += float64(m.size) * f(m)
		}
		return s / float64(total)
	}
	macro := func(f func(member) float64) float64 {
		s := 0.0
		for _, m := range ms {
			s += f(m)
		}
		return s / float64(len(ms))
	}
	a := func(m member) float64 { return m.vA }
	b := func(m member) float64 { return m.vB }
	var weight func(member) float64
	switch {
	case same(micro(a), gA) && same(micro(b), gB):
		weight = func(m member) float64 { return float64(m.size) / float64(total) }
		pooled = true
	case same(macro(a), gA) && same(macro(b), gB):
		weight = func(member) float64 { return 1 / float64(len(ms)) }
	default:
		return nil, 0, false, "its score is neither the size-weighted nor the plain mean of its members'"
	}
	for _, m := range ms {
		w := weight(m)
		for _, l := range m.leaves {
			leaves = append(leaves, leaf{l.task, w * l.weight})
		}
		pooled = pooled && m.pooled
	}
	return leaves, total, pooled, ""
}

func same(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }

// group compares group g's metrics.
func (p *pairing) group(g string) {
	ea, _ := p.a.Results.Results.Get(g)
	eb, _ := p.b.Results.Results.Get(g)
	for _, key := range p.metricKeys(ea, eb) {
		metric, filter, _ := strings.Cut(key, ",")
		row := p.newRow(g, true, metric, filter, ea, eb)
		p.c.Groups = append(p.c.Groups, row)
		leaves, _, pooled, why := p.groupWeights(g, key)
		if why != "" {
			row.Note = "not compared per document: " + why
			continue
		}
		parts := make([]stats.Result, len(leaves))
		weights := make([]float64, len(leaves))
		for i, l := range leaves {
			parts[i] = *p.rows[l.task][key].Paired
			weights[i] = l.weight
		}
		if !pooled {
			r := stats.Stratified(parts, weights, p.o.Alpha, p.o.Power)
			row.Paired, row.Weighting = &r, Stratified
			continue
		}
		// One paired sample of all the group's documents; the bootstrap
		// resamples within each task (stratified), as the tasks' sizes are
		// fixed by the benchmark.
		var va, vb []float64
		var docs []*results.Sample
		var task []int
		for i, l := range leaves {
			v := p.perDoc[l.task][key]
			va = append(va, v[0]...)
			vb = append(vb, v[1]...)
			docs = append(docs, p.matched[l.task]...)
			for range v[0] {
				task = append(task, i)
			}
		}
		so := stats.Options{Alpha: p.o.Alpha, Power: p.o.Power, Iters: -1}
		switch {
		case p.o.Cluster != "":
			ids, ok, err := clusterIDs(g, docs, p.o.Cluster, false)
			if ok && err == nil {
				so.Clusters, row.ClusterKey = ids, p.o.Cluster
			}
		case len(leaves) > 1:
			so.Clusters, row.ClusterKey = task, "task"
		}
		r := stats.Compare(va, vb, so)
		reps := make([][]float64, len(parts))
		for i := range parts {
			reps[i] = parts[i].Replicates
			// Each task's share of the pooled mean: its documents scored
			// in both runs.
			weights[i] = float64(parts[i].N) / float64(max(r.N, 1))
		}
		if rep := stats.CombineReplicates(reps, weights); rep != nil && r.N > 0 {
			ci := stats.PercentileCI(rep, p.o.Alpha)
			r.Replicates, r.Boot = rep, &ci
		}
		row.Paired, row.Weighting = &r, Pooled
	}
}
