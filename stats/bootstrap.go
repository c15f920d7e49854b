package stats

import (
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultIters is the number of bootstrap replicates when none is given.
const DefaultIters = 10000

// Bootstrap returns iters replicates of the mean of d under the
// nonparametric bootstrap: each is the mean of len(d) values drawn from d
// uniformly with replacement. Replicate r is drawn from its own random
// stream, derived from seed and r alone, so the result depends on d,
// iters and seed only, not on the number of CPUs.
//
// Two samplers produce exactly that distribution:
//
//   - naive: len(d) uniform indices per replicate (Lemire's unbiased
//     bounded integers from a 64-bit generator, two 32-bit draws per
//     output), summed;
//   - multinomial, when d has few distinct values (0/1 metrics give
//     differences in {-1, 0, 1}): a replicate's mean depends only on how
//     many times each distinct value v_k was drawn, and those counts are
//     Multinomial(n; c_k/n) for value counts c_k. They are drawn as
//     conditional binomials, N_k ~ Bin(n - Σ_{j<k} N_j, c_k / Σ_{j>=k} c_j),
//     with an exact binomial sampler (inversion below a mean of 10, else
//     Hörmann's BTRS rejection with the exact acceptance test), and the
//     replicate is Σ v_k N_k / n. That is the naive replicate's
//     distribution exactly, at K draws instead of n (the sums differ only
//     in floating-point rounding order).
//
// The multinomial sampler is used when K distinct values cost less than n
// uniform draws (128·K <= n).
func Bootstrap(d []float64, iters int, seed uint64) []float64 {
	n := len(d)
	if n == 0 || iters <= 0 {
		return nil
	}
	vals, counts := distinct(d)
	if len(vals) <= 1 {
		out := make([]float64, iters)
		for i := range out {
			out[i] = vals[0]
		}
		return out
	}
	if 128*len(vals) <= n {
		return replicates(iters, seed, func(r *rng) float64 { return multinomialMean(vals, counts, n, r) })
	}
	return replicates(iters, seed, func(r *rng) float64 { return naiveMean(d, r) })
}

// bootstrapNaive and bootstrapMultinomial force one sampler (for tests
// and benchmarks).
func bootstrapNaive(d []float64, iters int, seed uint64) []float64 {
	return replicates(iters, seed, func(r *rng) float64 { return naiveMean(d, r) })
}

func bootstrapMultinomial(d []float64, iters int, seed uint64) []float64 {
	vals, counts := distinct(d)
	return replicates(iters, seed, func(r *rng) float64 { return multinomialMean(vals, counts, len(d), r) })
}

// distinct returns the sorted distinct values of d and their counts.
func distinct(d []float64) ([]float64, []int) {
	s := slices.Clone(d)
	slices.Sort(s)
	var vals []float64
	var counts []int
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			vals = append(vals, v)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
	}
	return vals, counts
}

// replicates computes iters replicates in parallel; replicate i uses the
// stream streamRNG(seed, i).
func replicates(iters int, seed uint64, one func(*rng) float64) []float64 {
	out := make([]float64, iters)
	const block = 64
	var next atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), (iters+block-1)/block)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				start := int(next.Add(block)) - block
				if start >= iters {
					return
				}
				for i := start; i < min(start+block, iters); i++ {
					r := streamRNG(seed, uint64(i))
					out[i] = one(&r)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// rng is wyrand (Wang Yi's 64-bit generator: a Weyl sequence mixed by a
// 128-bit multiply), small enough to inline in the hot loop.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// float is uniform on the open interval (0, 1).
func (r *rng) float() float64 { return (float64(r.next()>>11) + 0.5) * (1.0 / (1 << 53)) }

// streamRNG seeds replicate i's generator by SplitMix64 of (seed, i).
func streamRNG(seed, i uint64) rng {
	return rng{s: splitmix(seed ^ splitmix(i+0x9e3779b97f4a7c15))}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// bounded maps a uniform 32-bit x to [0, n) without bias (Lemire,
// "Fast random integer generation in an interval", 2019): the product's
// low half below 2^32 mod n marks the few values to reject and redraw.
func bounded(x uint32, n, thresh uint32, r *rng) uint32 {
	m := uint64(x) * uint64(n)
	for uint32(m) < thresh {
		m = uint64(uint32(r.next())) * uint64(n)
	}
	return uint32(m >> 32)
}

// naiveMean draws len(d) values of d with replacement and returns their
// mean. Four partial sums keep the additions from waiting on each other.
func naiveMean(d []float64, r *rng) float64 {
	n := uint32(len(d))
	thresh := -n % n // 2^32 mod n
	var s0, s1, s2, s3 float64
	i := uint32(0)
	for ; i+4 <= n; i += 4 {
		x, y := r.next(), r.next()
		s0 += d[bounded(uint32(x), n, thresh, r)]
		s1 += d[bounded(uint32(x>>32), n, thresh, r)]
		s2 += d[bounded(uint32(y), n, thresh, r)]
		s3 += d[bounded(uint32(y>>32), n, thresh, r)]
	}
	for ; i < n; i++ {
		s0 += d[bounded(uint32(r.next()), n, thresh, r)]
	}
	return ((s0 + s1) + (s2 + s3)) / float64(n)
}

// multinomialMean draws the counts of each distinct value in a resample
// of n and returns the resample's mean.
func multinomialMean(vals []float64, counts []int, n int, r *rng) float64 {
	left, cLeft := n, n
	sum := 0.0
	for k := 0; k < len(vals)-1 && left > 0; k++ {
		nk := binomial(left, float64(counts[k])/float64(cLeft), r)
		sum += vals[k] * float64(nk)
		left -= nk
		cLeft -= counts[k]
	}
	if left > 0 {
		sum += vals[len(vals)-1] * float64(left)
	}
	return sum / float64(n)
}

// binomial draws from Bin(n, p) exactly: by inversion when n·min(p, 1-p)
// < 10, else by BTRS (W. Hörmann, "The generation of binomial random
// variates", J. Statist. Comput. Simul. 46, 1993), whose acceptance test
// compares with the exact probability ratio f(k)/f(m) (log factorials
// through Stirling's series with its tail, exact to rounding for k >= 10
// and tabulated from lgamma below).
func binomial(n int, p float64, r *rng) int {
	switch {
	case p <= 0 || n == 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - binomial(n, 1-p, r)
	case float64(n)*p < 10:
		return binomialInversion(n, p, r)
	}
	return binomialBTRS(n, p, r)
}

func binomialInversion(n int, p float64, r *rng) int {
	q := 1 - p
	s := p / q
	a := float64(n+1) * s
	f0 := math.Exp(float64(n) * math.Log1p(-p))
	for {
		f := f0
		u := r.float()
		for k := 0; k <= n; k++ {
			if u <= f {
				return k
			}
			u -= f
			f *= a/float64(k+1) - s
		}
		// Rounding left u above the total mass: draw again.
	}
}

func binomialBTRS(n int, p float64, r *rng) int {
	nf := float64(n)
	spq := math.Sqrt(nf * p * (1 - p))
	b := 1.15 + 2.53*spq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := nf*p + 0.5
	vr := 0.92 - 4.2/b
	alpha := (2.83 + 5.1/b) * spq
	rr := p / (1 - p)
	m := math.Floor((nf + 1) * p)
	h := lfactTail(m) + lfactTail(nf-m)
	for {
		u := r.float() - 0.5
		v := r.float()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + c)
		if k < 0 || k > nf {
			continue
		}
		if us >= 0.07 && v <= vr {
			return int(k)
		}
		v = math.Log(v * alpha / (a/(us*us) + b))
		// log f(k)/f(m) for the binomial pmf f, from Stirling's formula
		// with its exact tail, in Hörmann's arrangement.
		bound := (m+0.5)*math.Log((m+1)/(rr*(nf-m+1))) +
			(nf+1)*math.Log((nf-m+1)/(nf-k+1)) +
			(k+0.5)*math.Log(rr*(nf-k+1)/(k+1)) +
			h - lfactTail(k) - lfactTail(nf-k)
		if v <= bound {
			return int(k)
		}
	}
}

// lfactTail is log(k!) - [(k+1/2)·log(k+1) - (k+1) + log(2π)/2], the
// remainder of Stirling's approximation of log Γ(k+2)/(k+1).
func lfactTail(k float64) float64 {
	if k < 10 {
		return lfactTable[int(k)]
	}
	k1 := k + 1
	k2 := k1 * k1
	return (1.0/12 - (1.0/360-1.0/1260/k2)/k2) / k1
}

var lfactTable = func() [10]float64 {
	var t [10]float64
	for k := range t {
		lg, _ := math.Lgamma(float64(k) + 1)
		kf := float64(k)
		t[k] = lg - ((kf+0.5)*math.Log(kf+1) - (kf + 1) + 0.5*math.Log(2*math.Pi))
	}
	return t
}()
