package nprand

import "context"

// DefaultSeed is lm-eval's default numpy seed (simple_evaluate's
// numpy_random_seed=1234).
const DefaultSeed = 1234

type seedKey struct{}

// NewContext returns a copy of ctx carrying a run's numpy seed, the value
// lm-eval's simple_evaluate gives np.random.seed (nil: numpy left unseeded,
// which lmeval replaces with DefaultSeed to stay deterministic).
func NewContext(ctx context.Context, seed *int64) context.Context {
	s := uint32(DefaultSeed)
	if seed != nil {
		s = uint32(*seed)
	}
	return context.WithValue(ctx, seedKey{}, s)
}

// FromContext is a fresh generator in the state np.random.seed leaves
// numpy's global one for the run ctx carries (DefaultSeed when it carries
// none): the state the first draw of a run sees.
func FromContext(ctx context.Context) *RandomState {
	s, ok := ctx.Value(seedKey{}).(uint32)
	if !ok {
		s = DefaultSeed
	}
	return New(s)
}
