package metrics

// NumpySum is numpy's float64 add.reduce over a contiguous array
// (np.sum(x), x.sum()): 0 plus the pairwise sum numpy's
// DOUBLE_pairwise_sum computes. Below eight items it adds left to right;
// up to 128 it keeps eight running sums, combined as
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then adds the remainder; larger
// arrays split in two halves (the first a multiple of eight long). Python's
// built-in sum adds left to right, which differs in the last bits from
// eight items on.
func NumpySum(xs []float64) float64 {
	return 0 + pairwiseSum(xs)
}

func pairwiseSum(a []float64) float64 {
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
		return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
	}
}
