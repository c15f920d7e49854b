package pyrand

import "sync"

// Python's module-level generator (random.shuffle, random.random, ...
// without an instance) is seeded by lm-eval with --seed's first value
// (random.seed(0) by default) before it builds the tasks. GlobalSeed is
// that seed, for ported helpers that call the module functions; the
// evaluator sets it with SeedGlobal.
var (
	globalMu   sync.Mutex
	globalSeed int64
)

// SeedGlobal records the seed of the module-level generator, as
// random.seed(seed).
func SeedGlobal(seed int64) {
	globalMu.Lock()
	defer globalMu.Unlock()
	globalSeed = seed
}

// GlobalSeed is the module-level generator's seed (0 unless set).
func GlobalSeed() int64 {
	globalMu.Lock()
	defer globalMu.Unlock()
	return globalSeed
}
