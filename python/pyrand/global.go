package pyrand

import "sync"

// Python's module-level generator (random.shuffle, random.random, ...
// without an instance) is seeded by lm-eval with --seed's first value
// (random.seed(0) by default) before it builds the tasks, and every ported
// helper that calls the module functions draws from it in turn. GlobalSeed
// is that seed; WithGlobal lends the generator itself. The evaluator sets
// both with SeedGlobal.
var (
	globalMu    sync.Mutex
	globalSeed  int64
	globalRand  = New(0)
	globalEpoch int
)

// SeedGlobal seeds the module-level generator, as random.seed(seed), and
// starts a new epoch (a new lm-eval process, for caches of draws).
func SeedGlobal(seed int64) {
	globalMu.Lock()
	defer globalMu.Unlock()
	globalSeed = seed
	globalRand = New(seed)
	globalEpoch++
}

// GlobalSeed is the module-level generator's seed (0 unless set).
func GlobalSeed() int64 {
	globalMu.Lock()
	defer globalMu.Unlock()
	return globalSeed
}

// WithGlobal runs fn with the module-level generator, which no one else
// draws from meanwhile, and returns the epoch it belongs to (SeedGlobal's
// count).
func WithGlobal(fn func(r *Rand)) (epoch int) {
	globalMu.Lock()
	defer globalMu.Unlock()
	fn(globalRand)
	return globalEpoch
}

// GlobalEpoch is the number of SeedGlobal calls so far.
func GlobalEpoch() int {
	globalMu.Lock()
	defer globalMu.Unlock()
	return globalEpoch
}
