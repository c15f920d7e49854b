package stats

import (
	"math"
	"slices"
)

// meanSD is the mean and the sample standard deviation (ddof = 1) of x,
// two-pass as numpy computes them; sd is NaN below two values.
func meanSD(x []float64) (mean, sd float64) {
	n := len(x)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	if n < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// TTest is a one-sample t-test of per-document differences against 0,
// which is the paired t-test of the two runs: scipy.stats.ttest_rel(b, a)
// for d = b - a, its confidence_interval(1 - alpha), and
// scipy.stats.sem(d) as SE.
type TTest struct {
	N    int
	Mean float64 // mean difference
	SD   float64 // standard deviation of the differences (ddof = 1)
	SE   float64 // SD / sqrt(N): the analytic paired standard error
	T    float64
	DF   int
	P    float64 // two-sided
	// Low and High bound the 1-alpha confidence interval of the mean
	// difference, Mean ± t(1-alpha/2, N-1)·SE.
	Low, High float64
}

// PairedT runs the paired t-test on differences d. As SciPy: below two
// differences every statistic but Mean is NaN; when all differences are
// equal, SE is 0 and T is NaN (all zero) or ±Inf with P = 0.
func PairedT(d []float64, alpha float64) TTest {
	r := TTest{N: len(d), DF: len(d) - 1}
	r.Mean, r.SD = meanSD(d)
	r.SE = r.SD / math.Sqrt(float64(r.N))
	r.T = r.Mean / r.SE
	r.P = tTwoSided(r.T, float64(r.DF))
	q := tQuantile(1-alpha/2, float64(r.DF))
	r.Low, r.High = r.Mean-q*r.SE, r.Mean+q*r.SE
	if r.SE == 0 {
		r.Low, r.High = r.Mean, r.Mean
	}
	return r
}

// McNemar is McNemar's exact test of paired 0/1 scores:
// statsmodels.stats.contingency_tables.mcnemar(table, exact=True), which
// is scipy.stats.binomtest(min(B, C), B + C, 0.5) (two-sided).
type McNemar struct {
	// B counts documents run A scored 1 and run B 0; C the reverse.
	B, C int
	// P = min(1, 2·P[X <= min(B, C)]) for X ~ Bin(B+C, 1/2); 1 when no
	// document is discordant.
	P float64
}

// McNemarExact counts the discordant pairs of 0/1 scores a and b (any
// nonzero counts as 1) and tests them.
func McNemarExact(a, b []float64) McNemar {
	var r McNemar
	for i := range a {
		switch {
		case a[i] != 0 && b[i] == 0:
			r.B++
		case a[i] == 0 && b[i] != 0:
			r.C++
		}
	}
	r.P = McNemarP(r.B, r.C)
	return r
}

// McNemarP is the exact two-sided p-value for b and c discordant pairs.
func McNemarP(b, c int) float64 {
	return math.Min(1, 2*binomCDF(min(b, c), b+c, 0.5))
}

// Clustered is the cluster-robust inference on a mean difference:
// statsmodels' OLS of the differences on a constant, fitted with
// cov_type='cluster', cov_kwds={'groups': clusters}, use_t=True. With G
// clusters, N documents and residuals e_i = d_i - mean(d),
//
//	SE² = G/(G-1) · Σ_g (Σ_{i∈g} e_i)² / N²
//
// (statsmodels' small-sample factor (N-1)/(N-K) is 1 for the one
// regressor), and T, P and the interval use Student's t with G-1 degrees
// of freedom.
type Clustered struct {
	Clusters  int
	SE        float64
	T         float64
	P         float64
	Low, High float64
}

// ClusteredT computes cluster-robust inference on mean(d), where
// cluster[i] names the cluster of d[i]. Below two clusters every
// statistic is NaN.
func ClusteredT(d []float64, cluster []int, alpha float64) Clustered {
	nan := math.NaN()
	r := Clustered{SE: nan, T: nan, P: nan, Low: nan, High: nan}
	n := len(d)
	if n == 0 {
		return r
	}
	mean, _ := meanSD(d)
	sums := map[int]float64{}
	for i, v := range d {
		sums[cluster[i]] += v - mean
	}
	g := len(sums)
	r.Clusters = g
	if g < 2 {
		return r
	}
	keys := make([]int, 0, g)
	for k := range sums {
		keys = append(keys, k)
	}
	slices.Sort(keys) // a fixed order: the sum does not depend on map order
	ss := 0.0
	for _, k := range keys {
		ss += sums[k] * sums[k]
	}
	gf := float64(g)
	r.SE = math.Sqrt(gf/(gf-1)*ss) / float64(n)
	r.T = mean / r.SE
	r.P = tTwoSided(r.T, gf-1)
	q := tQuantile(1-alpha/2, gf-1)
	r.Low, r.High = mean-q*r.SE, mean+q*r.SE
	if r.SE == 0 {
		r.Low, r.High = mean, mean
	}
	return r
}

// Holm adjusts p-values for multiple comparisons by Holm's step-down
// method: statsmodels.stats.multitest.multipletests(p, method='holm')'s
// pvals_corrected. NaN p-values (tests that could not be run) keep NaN
// and do not count as tests.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		out[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for j, i := range idx {
		running = math.Max(running, float64(m-j)*p[i])
		out[i] = math.Min(1, running)
	}
	return out
}

// TTestPower is the power of a two-sided one-sample (or paired) t-test at
// level alpha over n observations for a true effect of es standard
// deviations: statsmodels.stats.power.TTestPower().power(es, n, alpha),
// from the noncentral t distribution with n-1 degrees of freedom and
// noncentrality es·sqrt(n).
func TTestPower(es float64, n int, alpha float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	df := float64(n - 1)
	crit := tQuantile(1-alpha/2, df)
	nc := es * math.Sqrt(float64(n))
	return (1 - nctCDF(crit, df, nc)) + nctCDF(-crit, df, nc)
}

// MDE is the minimum detectable effect of a paired t-test: the smallest
// true mean difference that a two-sided test at level alpha over n
// documents detects with the given power, when the differences have
// standard deviation sd. It is es·sd, where es solves TTestPower(es, n,
// alpha) = power, as statsmodels' TTestPower().solve_power(nobs=n,
// alpha=alpha, power=power). NaN below two documents or when sd is 0 or
// NaN (no spread to plan with).
func MDE(n int, sd, alpha, power float64) float64 {
	if n < 2 || !(sd > 0) || !(power > alpha/2 && power < 1) {
		return math.NaN()
	}
	es := solveIncreasing(func(es float64) float64 { return TTestPower(es, n, alpha) }, power)
	return es * sd
}

// NormalPower is the power of a two-sided z-test at level alpha for a true
// effect of es standard errors: statsmodels' NormalIndPower().power(es,
// nobs1=1, alpha, ratio=0), Φ(es - z) + Φ(-es - z) with z = Φ⁻¹(1-alpha/2).
func NormalPower(es, alpha float64) float64 {
	z := normQuantile(1 - alpha/2)
	return normCDF(es-z) + normCDF(-es-z)
}

// MDENormal is the minimum detectable effect of a two-sided z-test whose
// estimate has standard error se: es·se with NormalPower(es, alpha) =
// power, as NormalIndPower().solve_power(nobs1=1, alpha=alpha,
// power=power, ratio=0). NaN when se is 0 or NaN.
func MDENormal(se, alpha, power float64) float64 {
	if !(se > 0) || !(power > alpha/2 && power < 1) {
		return math.NaN()
	}
	return solveIncreasing(func(es float64) float64 { return NormalPower(es, alpha) }, power) * se
}

// solveIncreasing finds x >= 0 with f(x) = y for an increasing f, by
// bracketing and bisection to the last representable digit.
func solveIncreasing(f func(float64) float64, y float64) float64 {
	lo, hi := 0.0, 1.0
	for f(hi) < y {
		lo, hi = hi, 2*hi
		if hi > 1e12 {
			return math.NaN()
		}
	}
	for i := 0; i < 200; i++ {
		mid := 0.5 * (lo + hi)
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < y {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi)
}
