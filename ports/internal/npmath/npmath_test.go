package npmath

import "testing"

// values are n numbers of widely different sizes, so that the order of
// the additions shows in the sum.
func values(n int) []float64 {
	p := []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}
	a := make([]float64, n)
	for i := range a {
		a[i] = float64((i*7919)%1000-500) / 3.0 * p[(i*31)%13]
	}
	return a
}

// np.sum and np.mean of values(n), from numpy 1.24.
func TestSumMatchesNumpy(t *testing.T) {
	for _, c := range []struct {
		n         int
		sum, mean float64
	}{
		{1, -0.00016666666666666666, -0.00016666666666666666},
		{5, 1127267.3084000002, 225453.46168000004},
		{8, 32771600.688400004, 4096450.0860500005},
		{9, 32771600.68790667, 3641288.9653229634},
		{17, 23372469.764522333, 1374851.1626189607},
		{128, -458475788.78851163, -3581842.099910247},
		{129, -458475788.74451166, -3554075.8817404006},
		{130, -458474088.74451166, -3526723.7595731667},
		{300, -121707221.47618604, -405690.73825395346},
		{1000, 50451949.093927115, 50451.94909392711},
		{4097, -721355482.3473866, -176069.19266472702},
	} {
		a := values(c.n)
		if got := Sum(a); got != c.sum {
			t.Errorf("n=%d: Sum %v, numpy %v", c.n, got, c.sum)
		}
		if got := Mean(a); got != c.mean {
			t.Errorf("n=%d: Mean %v, numpy %v", c.n, got, c.mean)
		}
	}
}
