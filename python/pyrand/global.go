package pyrand

import (
	"sync"
	"sync/atomic"
)

// Module is Python's module-level generator (random.shuffle,
// random.random, ... called without an instance) as one run of lm-eval has
// it: lm-eval seeds it with --seed's first value (random.seed(seed))
// before it builds the tasks, and every ported helper that calls the
// module's functions draws from it in turn. Each evaluation has its own,
// so two in one process do not see each other's draws. A Module is safe
// for concurrent use.
type Module struct {
	mu    sync.Mutex
	seed  int64
	rand  *Rand
	epoch uint64
}

var epochs atomic.Uint64

// NewModule is the module-level generator after random.seed(seed).
func NewModule(seed int64) *Module {
	return &Module{seed: seed, rand: New(seed), epoch: epochs.Add(1)}
}

// Seed is the seed random.seed was given.
func (m *Module) Seed() int64 { return m.seed }

// With runs fn with the generator, which no one else draws from meanwhile.
func (m *Module) With(fn func(r *Rand)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fn(m.rand)
}

// Epoch is m's own number in the process. What a run caches of its draws
// (datasets' map cache, which a new lm-eval process starts empty) is keyed
// by it.
func (m *Module) Epoch() uint64 { return m.epoch }
