package pyrand

// NumPy's legacy generator (numpy.random.seed, RandomState) is the same
// Mersenne Twister, seeded otherwise: an integer seed is init_genrand's
// (mt19937_seed), not init_by_array's as in CPython.

// NewNumPy returns a generator seeded as np.random.seed(seed) or
// np.random.RandomState(seed) with an integer seed.
func NewNumPy(seed uint32) *Rand {
	r := &Rand{}
	r.initGenrand(seed)
	return r
}

// NumPyRandint returns RandomState.randint(0, n) for 0 < n <= 2**32, as
// RandomState.choice(n) with replacement also draws: the legacy masked
// rejection sampling on 32-bit outputs (no draw at all when n is 1).
func (r *Rand) NumPyRandint(n int) int {
	if n <= 0 || uint64(n) > 1<<32 {
		panic("pyrand: NumPyRandint: n out of range")
	}
	rng := uint32(n - 1)
	if rng == 0 {
		return 0
	}
	if rng == 0xffffffff {
		return int(r.Uint32())
	}
	mask := rng
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		if v := r.Uint32() & mask; v <= rng {
			return int(v)
		}
	}
}
