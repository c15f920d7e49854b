package pyrand

import (
	"crypto/sha512"
	"math/big"
)

// NewString returns a generator seeded as random.Random(s) for a str s
// (seed version 2): the int of s's UTF-8 bytes followed by their SHA-512
// digest, big-endian.
func NewString(s string) *Rand {
	r := &Rand{}
	r.SeedString(s)
	return r
}

// SeedString reseeds as random.Random.seed(s) does for a str.
func (r *Rand) SeedString(s string) {
	b := []byte(s)
	d := sha512.Sum512(b)
	r.SeedBigInt(new(big.Int).SetBytes(append(b, d[:]...)))
}

// SeedBigInt reseeds as random.Random.seed(a) for an int of any size: the
// absolute value's 32-bit words, least significant first.
func (r *Rand) SeedBigInt(a *big.Int) {
	u := new(big.Int).Abs(a)
	var key []uint32
	mask := big.NewInt(0xffffffff)
	for u.Sign() > 0 {
		key = append(key, uint32(new(big.Int).And(u, mask).Uint64()))
		u.Rsh(u, 32)
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	r.initByArray(key)
	r.hasGaussNext = false
}
