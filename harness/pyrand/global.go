package pyrand

import "sync"

// Python's module-level generator (random.shuffle, random.random, ...
// without an instance), which lm-eval seeds with --seed's first value
// (random.seed(0) by default) before it builds the tasks. Ported helpers
// that call the module functions draw from it.
var (
	globalMu sync.Mutex
	global   = New(0)
)

// SeedGlobal reseeds the module-level generator, as random.seed(seed).
func SeedGlobal(seed int64) {
	globalMu.Lock()
	defer globalMu.Unlock()
	global.Seed(seed)
}

// WithGlobal runs fn with the module-level generator, holding it so that
// concurrent callers draw in a well-defined order.
func WithGlobal(fn func(r *Rand)) {
	globalMu.Lock()
	defer globalMu.Unlock()
	fn(global)
}
