package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestPlanGroups checks the trie layout the scheduler decodes: every job's
// tokens appear exactly once along its path in position order, shared
// prefixes are stored once, each scored position carries its target, and
// groups respect n_seq_max and come longest first.
func TestPlanGroups(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var jobs []job
	for q := 0; q < 30; q++ {
		ctx := make([]int32, 5+r.Intn(40))
		for i := range ctx {
			ctx[i] = int32(r.Intn(6)) // a small alphabet: many shared prefixes
		}
		for k := 0; k < 1+r.Intn(4); k++ {
			cont := []int32{int32(r.Intn(6)), int32(r.Intn(6)), int32(10 + k)}
			inp := append(slices.Clone(ctx), cont[:len(cont)-1]...)
			jobs = append(jobs, job{inp: inp, targets: cont, slot: int32(len(jobs))})
		}
	}
	jobs = append(jobs, jobs[3]) // a duplicate shares everything
	jobs[len(jobs)-1].slot = int32(len(jobs) - 1)

	// The trie's size, computed independently: the distinct non-empty
	// prefixes of all inputs.
	prefixes := map[string]bool{}
	for _, j := range jobs {
		for l := 1; l <= len(j.inp); l++ {
			prefixes[fmt.Sprint(j.inp[:l])] = true
		}
	}
	for _, tc := range []struct {
		share         bool
		nSeqMax, nCtx int
	}{{true, 256, 100000}, {true, 7, 400}, {false, 7, 400}} {
		share, nSeqMax, nCtx := tc.share, tc.nSeqMax, tc.nCtx
		groups := planGroups(jobs, share, nSeqMax, nCtx, nCtx, 0)
		seen := map[int32]bool{}
		totalNodes, totalTokens := 0, 0
		for gi, g := range groups {
			if g.njobs > nSeqMax {
				t.Fatalf("group %d has %d jobs > n_seq_max", gi, g.njobs)
			}
			// Past a quarter of the cache a group grows only by a question's
			// choices: jobs sharing the previous job's whole context.
			if len(g.nodes) > nCtx {
				t.Fatalf("group %d has %d cells > n_ctx", gi, len(g.nodes))
			}
			cells := 0
			for k, ji := range g.jobs {
				add := len(jobs[ji].inp)
				if k > 0 {
					prev := jobs[g.jobs[k-1]]
					l := lcp(prev.inp, jobs[ji].inp)
					add -= l
					if cells+add > nCtx/4 && l < len(prev.inp)-len(prev.targets) {
						t.Fatalf("group %d: job %d passes n_ctx/4 (%d cells) without sharing the previous job's context", gi, ji, cells+add)
					}
				}
				cells += add
			}
			if gi > 0 && groups[gi-1].maxLen < g.maxLen {
				t.Fatalf("groups not longest first: %d then %d", groups[gi-1].maxLen, g.maxLen)
			}
			totalNodes += len(g.nodes)
			// Rebuild each local job's token path and scored items.
			paths := make([][]int32, g.njobs)
			items := map[int32][]gitem{}
			for _, n := range g.nodes {
				for _, s := range n.seqs {
					if int(n.pos) != len(paths[s]) {
						t.Fatalf("group %d: job %d gets position %d after %d tokens", gi, s, n.pos, len(paths[s]))
					}
					paths[s] = append(paths[s], n.tok)
				}
				for _, it := range n.items {
					items[it.slot] = append(items[it.slot], it)
				}
			}
			for _, p := range paths {
				totalTokens += len(p)
			}
			for slot, its := range items {
				j := jobs[slot]
				if seen[slot] {
					t.Fatalf("job %d in two groups", slot)
				}
				seen[slot] = true
				if len(its) != len(j.targets) {
					t.Fatalf("job %d: %d scored positions, want %d", slot, len(its), len(j.targets))
				}
				for i, it := range its {
					if it.target != j.targets[i] {
						t.Fatalf("job %d: target %d = %d, want %d", slot, i, it.target, j.targets[i])
					}
				}
			}
			// The paths are exactly the group's jobs' inputs.
			var want [][]int32
			for slot := range items {
				want = append(want, jobs[slot].inp)
			}
			got := slices.Clone(paths)
			slices.SortFunc(got, slices.Compare)
			slices.SortFunc(want, slices.Compare)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("group %d: paths differ from the jobs' inputs", gi)
			}
		}
		if len(seen) != len(jobs) {
			t.Fatalf("%d of %d jobs planned", len(seen), len(jobs))
		}
		requested := 0
		for _, j := range jobs {
			requested += len(j.inp)
		}
		if totalTokens != requested {
			t.Fatalf("paths hold %d tokens, jobs %d", totalTokens, requested)
		}
		if !share && totalNodes != requested {
			t.Errorf("without sharing %d nodes for %d tokens", totalNodes, requested)
		}
		if share && nCtx == 100000 && totalNodes != len(prefixes) {
			t.Errorf("with sharing %d nodes, want the %d distinct prefixes", totalNodes, len(prefixes))
		}
		if share && totalNodes >= requested*3/4 {
			t.Errorf("with sharing %d nodes for %d tokens", totalNodes, requested)
		}
	}
}

// TestPlanGroupsMinShare: with a minimum share, jobs that share only a few
// leading tokens (a BOS) are planned apart, while choices of one question,
// which share their long context, stay together.
func TestPlanGroupsMinShare(t *testing.T) {
	var jobs []job
	for q := 0; q < 6; q++ {
		ctx := []int32{1} // BOS, then a context of its own
		for i := 0; i < 40; i++ {
			ctx = append(ctx, int32(2+q*50+i))
		}
		for c := 0; c < 4; c++ {
			jobs = append(jobs, job{inp: append(slices.Clone(ctx), int32(1000+c)), targets: []int32{int32(2000 + c)}, slot: int32(len(jobs))})
		}
	}
	groups := planGroups(jobs, true, 256, 100000, 100000, 4)
	if len(groups) != 6 {
		t.Fatalf("%d groups, want one per question", len(groups))
	}
	for gi, g := range groups {
		if g.njobs != 4 || len(g.nodes) != 41+4 {
			t.Errorf("group %d: %d jobs, %d nodes; want 4 jobs sharing 41 tokens (45 nodes)", gi, g.njobs, len(g.nodes))
		}
	}
	// Without the minimum every question joins one trie through the BOS.
	if n := len(planGroups(jobs, true, 256, 100000, 100000, 0)); n != 1 {
		t.Errorf("minShare 0: %d groups, want 1", n)
	}
}

// TestChoicesStayTogether is issue 14's item 9: with a small cache
// (n_ctx 512, so a group is capped at 128 cells) a question whose context
// and endings exceed a quarter of the cache keeps its choices in one
// group, so its context is decoded once, not once per choice; questions
// still never share a group.
func TestChoicesStayTogether(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var jobs []job
	wantCells := 0
	for q := 0; q < 60; q++ {
		ctx := make([]int32, 120+r.Intn(40))
		ctx[0] = 1 // BOS: shared by every question
		for i := 1; i < len(ctx); i++ {
			ctx[i] = int32(100 + r.Intn(1000))
		}
		wantCells += len(ctx)
		for k := 0; k < 4; k++ {
			cont := make([]int32, 5+r.Intn(10))
			cont[0] = int32(2000 + 4*q + k) // choices differ from their first token
			for i := 1; i < len(cont); i++ {
				cont[i] = int32(100 + r.Intn(1000))
			}
			inp := append(slices.Clone(ctx), cont[:len(cont)-1]...)
			jobs = append(jobs, job{inp: inp, targets: cont, slot: int32(len(jobs))})
			wantCells += len(cont) - 1
		}
	}
	groups := planGroups(jobs, true, 256, 512, 8192, 4)
	if len(groups) != 60 {
		t.Fatalf("%d groups, want one per question (60)", len(groups))
	}
	cells := 0
	for _, g := range groups {
		if g.njobs != 4 {
			t.Fatalf("a group of %d jobs, want a question's 4 choices", g.njobs)
		}
		cells += len(g.nodes)
	}
	// Each question decodes its context (BOS included) once and each
	// choice's own input tokens once.
	if cells != wantCells {
		t.Errorf("%d cells decoded, want %d", cells, wantCells)
	}
}
