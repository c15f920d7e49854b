// Package pyrand reproduces CPython's random.Random (the Mersenne Twister
// MT19937 seeded as CPython seeds it) so that code ported from Python draws
// exactly the same numbers: lm-eval picks few-shot examples with
// random.Random(seed).sample, and identical prompts need identical draws.
//
// Seeding from an integer, random(), getrandbits(k), the getrandbits-based
// _randbelow, sample() (both its pool-based and set-based branches), shuffle
// and choice follow CPython 3.11's Lib/random.py and Modules/_randommodule.c.
package pyrand

import (
	"errors"
	"math"
	"math/bits"
)

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is one generator, like a Python random.Random instance. It is not
// safe for concurrent use.
type Rand struct {
	mt  [n]uint32
	mti int

	gaussNext    float64 // random.Random.gauss_next
	hasGaussNext bool
}

// New returns a generator seeded as random.Random(seed).
func New(seed int64) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed reseeds as random.Random.seed(seed) does for an int: the absolute
// value is split into 32-bit words, least significant first, and fed to
// init_by_array.
func (r *Rand) Seed(seed int64) {
	var u uint64
	if seed < 0 {
		u = uint64(-(seed + 1)) + 1 // abs without overflow at MinInt64
	} else {
		u = uint64(seed)
	}
	key := []uint32{uint32(u)}
	if hi := uint32(u >> 32); hi != 0 {
		key = append(key, hi)
	}
	r.initByArray(key)
	r.hasGaussNext = false
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

func (r *Rand) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := n
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 returns the next 32-bit output (CPython's genrand_uint32).
func (r *Rand) Uint32() uint32 {
	if r.mti >= n {
		var kk int
		for kk = 0; kk < n-m; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+m] ^ (y >> 1) ^ (-(y & 1) & matrixA)
		}
		for ; kk < n-1; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+(m-n)] ^ (y >> 1) ^ (-(y & 1) & matrixA)
		}
		y := (r.mt[n-1] & upperMask) | (r.mt[0] & lowerMask)
		r.mt[n-1] = r.mt[m-1] ^ (y >> 1) ^ (-(y & 1) & matrixA)
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns a float in [0, 1) with 53 random bits, as random.random().
func (r *Rand) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// Getrandbits returns a k-bit random integer, 0 <= k <= 64, as
// random.getrandbits(k): 32-bit words are drawn least significant first and
// the last one is shifted down to the bits still needed.
func (r *Rand) Getrandbits(k int) uint64 {
	if k < 0 || k > 64 {
		panic("pyrand: Getrandbits supports 0 <= k <= 64")
	}
	if k == 0 {
		return 0
	}
	if k <= 32 {
		return uint64(r.Uint32() >> (32 - k))
	}
	var out uint64
	for shift := 0; k > 0; shift += 32 {
		w := r.Uint32()
		if k < 32 {
			w >>= 32 - k
		}
		out |= uint64(w) << shift
		k -= 32
	}
	return out
}

// Randbelow returns an int in [0, n) as random.Random._randbelow does
// (rejection sampling on getrandbits(n.bit_length())). n must be positive.
func (r *Rand) Randbelow(n int) int {
	if n <= 0 {
		panic("pyrand: Randbelow needs n > 0")
	}
	k := bits.Len64(uint64(n))
	v := r.Getrandbits(k)
	for v >= uint64(n) {
		v = r.Getrandbits(k)
	}
	return int(v)
}

// ErrSampleSize is returned by Sample when k is negative or exceeds the
// population, where Python raises ValueError.
var ErrSampleSize = errors.New("sample larger than population or is negative")

// Sample returns the indices random.sample(range(popSize), k) would select,
// in selection order. Selecting from a population p is then p[idx[i]], which
// is exactly what random.sample(p, k) returns for a sequence p.
func (r *Rand) Sample(popSize, k int) ([]int, error) {
	if k < 0 || k > popSize {
		return nil, ErrSampleSize
	}
	result := make([]int, k)
	setsize := 21 // size of a small set minus size of an empty list
	if k > 5 {
		setsize += int(math.Pow(4, math.Ceil(math.Log(float64(k*3))/math.Log(4))))
	}
	if popSize <= setsize {
		// An n-length list is smaller than a k-length set.
		pool := make([]int, popSize)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := r.Randbelow(popSize - i)
			result[i] = pool[j]
			pool[j] = pool[popSize-i-1]
		}
		return result, nil
	}
	selected := make(map[int]struct{}, k)
	for i := 0; i < k; i++ {
		j := r.Randbelow(popSize)
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = r.Randbelow(popSize)
		}
		selected[j] = struct{}{}
		result[i] = j
	}
	return result, nil
}

// Shuffle permutes n elements in place through swap, as random.shuffle.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := r.Randbelow(i + 1)
		swap(i, j)
	}
}

// Choice returns the index random.choice(seq) would pick from a sequence of
// length n (n > 0).
func (r *Rand) Choice(n int) int {
	return r.Randbelow(n)
}

// Gauss returns a normally distributed float as random.gauss(mu, sigma):
// CPython's Box-Muller pair, the second value kept for the next call (and
// dropped by Seed). The log, sqrt, cos and sin are Go's; they can differ from
// the C library's in the last bit.
func (r *Rand) Gauss(mu, sigma float64) float64 {
	z, ok := r.gaussNext, r.hasGaussNext
	r.hasGaussNext = false
	if !ok {
		x2pi := r.Random() * (2 * math.Pi)
		g2rad := math.Sqrt(-2.0 * math.Log(1.0-r.Random()))
		z = math.Cos(x2pi) * g2rad
		r.gaussNext, r.hasGaussNext = math.Sin(x2pi)*g2rad, true
	}
	return mu + float64(z*sigma) // the conversion keeps the product from being fused
}

// NewGenrand returns a generator seeded by MT19937's init_genrand(seed)
// alone: numpy's legacy np.random.seed(seed) (RandomState), where CPython
// feeds the seed to init_by_array instead.
func NewGenrand(seed uint32) *Rand {
	r := &Rand{}
	r.initGenrand(seed)
	return r
}

// Pos is the index of the next state word the generator tempers (624
// right after seeding): the position numpy's get_state()[2] and CPython's
// getstate()[1][-1] report.
func (r *Rand) Pos() int { return r.mti }
