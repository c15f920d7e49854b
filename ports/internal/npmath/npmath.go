// Package npmath reproduces the numpy reductions lm-eval's helpers use
// where the order of floating-point operations shows in the result:
// np.sum and np.mean of float64 arrays (pairwise summation).
package npmath

import "math"

// pairwise is numpy's pairwise_sum for float64 (PW_BLOCKSIZE 128, eight
// accumulators).
func pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwise(a[:n2]) + pairwise(a[n2:])
	}
}

// Sum is np.sum of a 1-d float64 array.
func Sum(a []float64) float64 { return pairwise(a) }

// Mean is np.mean: NaN for an empty array (numpy warns).
func Mean(a []float64) float64 {
	if len(a) == 0 {
		return math.NaN()
	}
	return Sum(a) / float64(len(a))
}

// Bool is numpy's bool_, what comparisons of numpy values give. lm-eval
// logs it with str() (json.dumps' default: handle_non_serializable), so a
// sample shows "True" or "False", a text; it aggregates as 1 or 0.
type Bool bool

// String is str(np.bool_): "True" or "False".
func (b Bool) String() string {
	if b {
		return "True"
	}
	return "False"
}

// MarshalJSON writes the sample's value, the text str() gives.
func (b Bool) MarshalJSON() ([]byte, error) { return []byte(`"` + b.String() + `"`), nil }

// SampleValue is what a samples file records (task.SampleValuer).
func (b Bool) SampleValue() any { return b.String() }
