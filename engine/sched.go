package engine

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// A job is one token sequence to decode whose last len(targets) positions
// are scored: position len(inp)-len(targets)+i predicts targets[i]. The
// log-probs add into result slot.
type job struct {
	inp     []int32
	targets []int32
	slot    int32
}

// A group is a set of jobs decoded as one trie: tokens they share (same
// tokens at the same positions from the start) are decoded once, carrying
// the sequence ids of every job that uses them.
type group struct {
	nodes  []gnode // depth-first order: each job's tokens appear in position order
	jobs   []int   // indices of the group's jobs
	ends   []int   // per job: the index of its last node (non-decreasing)
	ended  int     // jobs whose last node is decoded and scored
	njobs  int
	maxLen int
	first  int // index of the group's first job, for a stable order
	ids    []int32
	cursor int
}

type gnode struct {
	tok   int32
	pos   int32
	seqs  []int32 // local job indices until admission, then sequence ids
	items []gitem
}

type gitem struct{ target, slot int32 }

// buildGroup makes the trie of jobs (given in lexicographic order of inp,
// so that shared prefixes are adjacent).
func buildGroup(jobs []job, idx []int) *group {
	g := &group{njobs: len(idx), first: slices.Min(idx), jobs: idx}
	// path[d] is the node index of the previous job at depth d.
	var path []int
	var prev []int32
	for local, ji := range idx {
		j := &jobs[ji]
		g.maxLen = max(g.maxLen, len(j.inp))
		l := lcp(prev, j.inp)
		path = path[:l]
		scoreFrom := len(j.inp) - len(j.targets)
		for d, tok := range j.inp {
			var n *gnode
			if d < l {
				n = &g.nodes[path[d]]
			} else {
				g.nodes = append(g.nodes, gnode{tok: tok, pos: int32(d)})
				path = append(path, len(g.nodes)-1)
				n = &g.nodes[len(g.nodes)-1]
			}
			n.seqs = append(n.seqs, int32(local))
			if d >= scoreFrom {
				n.items = append(n.items, gitem{target: j.targets[d-scoreFrom], slot: j.slot})
			}
		}
		g.ends = append(g.ends, path[len(path)-1])
		prev = j.inp
	}
	return g
}

func lcp(a, b []int32) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// planGroups partitions jobs into groups and orders them longest first (as
// lm-eval's Collator orders requests), so the biggest batches come first.
// Without sharing every job is its own group. With minShare > 0 a job joins
// the previous job's group only when the prefix they share is at least
// 1/minShare of the tokens it adds: sharing a BOS saves nothing but would
// keep unrelated sequences in the cache together. nCtx is the most cells
// a group may take, groupCells the cells whose quarter caps a group
// otherwise.
func planGroups(jobs []job, share bool, nSeqMax, nCtx, groupCells, minShare int) []*group {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	var groups []*group
	if !share {
		for _, i := range order {
			groups = append(groups, buildGroup(jobs, []int{i}))
		}
	} else {
		slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(jobs[a].inp, jobs[b].inp) })
		// A group is capped at a quarter of the cache (its first job always
		// fits), so several groups are in flight and batches stay full while
		// one finishes. The cap never splits a question's choices, though:
		// a job whose shared prefix covers the previous job's whole
		// unscored part (its context) stays in the group while the group
		// fits the cache, so the context is decoded once, not per choice.
		limit := max(min(nCtx, groupCells)/4, 1)
		var cur []int
		cells := 0
		for k, i := range order {
			shared, sibling := 0, false
			if k > 0 {
				prev := &jobs[order[k-1]]
				shared = lcp(prev.inp, jobs[i].inp)
				sibling = shared > 0 && shared >= len(prev.inp)-len(prev.targets)
			}
			add := len(jobs[i].inp) - shared
			over := cells+add > limit && !(sibling && cells+add <= nCtx)
			if len(cur) > 0 && (shared == 0 || len(cur) >= nSeqMax || over || (minShare > 0 && shared*minShare < add)) {
				groups = append(groups, buildGroup(jobs, cur))
				cur, cells, add = cur[:0:0], 0, len(jobs[i].inp)
			}
			cur = append(cur, i)
			cells += add
		}
		if len(cur) > 0 {
			groups = append(groups, buildGroup(jobs, cur))
		}
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		if a.maxLen != b.maxLen {
			return b.maxLen - a.maxLen
		}
		return a.first - b.first
	})
	return groups
}

// runJobs decodes the jobs, many sequences per llama_batch, admitting
// groups as earlier ones finish and free their sequences and cache cells.
// It adds each job's log-probs into lp[slot] and clears greedy[slot] when a
// target is not its row's argmax, and tells fin (when not nil) of each job
// finished, flushing it once per decode step.
func (m *Model) runJobs(ctx context.Context, jobs []job, lp []float64, greedy []uint8, fin *finishTracker) error {
	return m.decodeJobs(ctx, jobs, true, &scoreStep{m: m, lp: lp, greedy: greedy}, fin)
}

// scoreStep is runJobs' step: lm_score over each decode's scored items.
type scoreStep struct {
	m      *Model
	items  scoreItems
	lp     []float64
	greedy []uint8
}

func (s *scoreStep) reset() { s.items.reset() }

func (s *scoreStep) add(row int32, n *gnode) {
	for _, it := range n.items {
		s.items.add(row, it.target, it.slot)
	}
}

func (s *scoreStep) score() error {
	t0 := time.Now()
	err := cScore(s.m.c, &s.items, s.lp, s.greedy)
	s.m.stats.ScoreTime += time.Since(t0)
	return err
}

// step is what decodeJobs does with each decode: reset before the batch
// is filled, add for each node put in it (row: its row in the batch),
// score once the batch is decoded.
type step interface {
	reset()
	add(row int32, n *gnode)
	score() error
}

// decodeJobs is the decode loop of runJobs and scanJobs: the jobs'
// prefix-sharing groups (planGroups) admitted as earlier ones finish and
// free their sequences and cache cells, each decode's nodes handed to st.
// With budgeted, a group joins active ones only while the cells in flight
// stay within the scheduler's budget (inflightCells); fin (when not nil)
// hears of each job finished, flushed once per decode step.
func (m *Model) decodeJobs(ctx context.Context, jobs []job, budgeted bool, st step, fin *finishTracker) error {
	if len(jobs) == 0 {
		return nil
	}
	nBatch, nSeq := m.info.NBatch, m.info.NSeqMax
	longest, tokens := 0, 0
	for i := range jobs {
		if len(jobs[i].inp) > m.maxCells() {
			return fmt.Errorf("a sequence of %d tokens exceeds n_ctx %d", len(jobs[i].inp), m.maxCells())
		}
		longest = max(longest, len(jobs[i].inp))
		tokens += len(jobs[i].inp)
		m.stats.TokensRequested += int64(len(jobs[i].inp))
	}
	// A group's cells are all in the cache while it decodes, and every token
	// attends over every occupied cell; so a group is kept to a few batches'
	// worth of cells even when the cache is far larger, and the cells in
	// flight to the scheduler's budget (inflightCells).
	budget := min(m.inflight(), m.maxCells())
	groups := planGroups(jobs, !m.opts.NoPrefixSharing, nSeq, m.maxCells(), 16*nBatch, 4)
	widest, total := longest, 0
	for _, g := range groups {
		widest = max(widest, len(g.nodes))
		total += len(g.nodes)
	}
	// The cache must hold the widest group; it is worth growing to the
	// budget (or as much of it as the work fills), or to that group plus a
	// batch.
	if err := m.reserve(widest, max(min(budget, total), widest+nBatch), scoringOf(tokens/len(jobs), m.info.NUBatch)); err != nil {
		return err
	}
	nCtx := m.info.NCtx
	budget = max(min(budget, nCtx), 1)

	cMemClear(m.c)
	defer cMemClear(m.c)
	free := make([]int32, 0, nSeq)
	for s := nSeq - 1; s >= 0; s-- {
		free = append(free, int32(s))
	}
	var (
		active []*group
		next   int
		used   int
		b      batch
	)
	for next < len(groups) || len(active) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Admit groups only while the next decode is not yet full: every
		// token attends over all occupied cells of the unified cache, so
		// sequences admitted early would only widen attention (with a large
		// auto-sized cache, rolling windows ran 5x slower that way).
		pending := 0
		for _, g := range active {
			pending += len(g.nodes) - g.cursor
		}
		for next < len(groups) && pending < nBatch {
			g := groups[next]
			if g.njobs > len(free) || used+len(g.nodes) > nCtx || (budgeted && len(active) > 0 && used+len(g.nodes) > budget) {
				break
			}
			pending += len(g.nodes)
			g.ids = append(g.ids[:0], free[len(free)-g.njobs:]...)
			free = free[:len(free)-g.njobs]
			for k := range g.nodes {
				for s, local := range g.nodes[k].seqs {
					g.nodes[k].seqs[s] = g.ids[local]
				}
			}
			used += len(g.nodes)
			active = append(active, g)
			next++
		}
		if len(active) == 0 {
			return fmt.Errorf("a group of %d sequences and %d tokens does not fit n_ctx %d / n_seq_max %d",
				groups[next].njobs, len(groups[next].nodes), nCtx, nSeq)
		}

		b.reset()
		st.reset()
	fill:
		for _, g := range active {
			for g.cursor < len(g.nodes) {
				if b.len() == nBatch {
					break fill
				}
				n := &g.nodes[g.cursor]
				st.add(b.add(n.tok, n.pos, n.seqs, len(n.items) > 0), n)
				g.cursor++
			}
		}
		if err := m.decode(&b); err != nil {
			return err
		}
		if err := st.score(); err != nil {
			return err
		}

		keep := active[:0]
		for _, g := range active {
			// A job is done once its last node is decoded and scored,
			// though its sequence id stays in use until the group ends.
			for g.ended < len(g.ends) && g.ends[g.ended] < g.cursor {
				fin.jobDone(jobs[g.jobs[g.ended]].slot)
				g.ended++
			}
			if g.cursor < len(g.nodes) {
				keep = append(keep, g)
				continue
			}
			for _, id := range g.ids {
				cSeqRm(m.c, id)
			}
			free = append(free, g.ids...)
			used -= len(g.nodes)
		}
		active = keep
		fin.flush()
	}
	return nil
}

// decode runs one llama_decode and counts it.
func (m *Model) decode(b *batch) error {
	t0 := time.Now()
	rc := cDecode(m.c, b)
	m.stats.DecodeTime += time.Since(t0)
	switch {
	case rc == 1:
		return fmt.Errorf("llama_decode: no KV cache slot for %d tokens (n_ctx %d)", b.len(), m.info.NCtx)
	case rc != 0:
		return fmt.Errorf("llama_decode failed (status %d)", rc)
	}
	m.stats.TokensDecoded += int64(b.len())
	m.stats.Decodes++
	return nil
}
