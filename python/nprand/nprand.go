// Package nprand reproduces the draws of numpy's legacy global generator
// (np.random.seed, np.random.choice, np.random.randint): MT19937 seeded by
// init_genrand, bounded integers by masked rejection sampling. lm-eval
// seeds it with --seed's numpy value (1234 by default) before it builds
// the tasks, and helper libraries draw from it (rouge_score's bootstrap
// aggregator resamples with np.random.choice); each run carries its own
// seed in its context (NewContext, FromContext).
package nprand

import "github.com/lmeval/lmeval/python/pyrand"

// RandomState is numpy.random.RandomState (the legacy generator).
type RandomState struct{ mt *pyrand.Rand }

// New is RandomState(seed) (np.random.seed(seed)).
func New(seed uint32) *RandomState { return &RandomState{pyrand.NewGenrand(seed)} }

// Uint32 is the next raw 32-bit output.
func (r *RandomState) Uint32() uint32 { return r.mt.Uint32() }

// Intn is one draw of randint(0, n) (n >= 1): uniform in [0, n) by numpy's
// legacy masked rejection over 32-bit outputs (n-1 < 2^32); n == 1 draws
// nothing.
func (r *RandomState) Intn(n int) int {
	rng := uint64(n - 1)
	if rng == 0 {
		return 0
	}
	if rng == 0xFFFFFFFF {
		return int(r.mt.Uint32())
	}
	mask := rng
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		v := uint64(r.mt.Uint32()) & mask
		if v <= rng {
			return int(v)
		}
	}
}

// Choice is np.random.choice(n, size) (equally np.random.choice of an
// array of n items, replace=True, no p): size indices in [0, n).
func (r *RandomState) Choice(n, size int) []int {
	out := make([]int, size)
	for i := range out {
		out[i] = r.Intn(n)
	}
	return out
}
