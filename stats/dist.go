package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// tTwoSided is 2·P[T > |t|] for Student's t with df degrees of freedom
// (scipy.stats.t.sf(|t|, df) * 2), from the regularized incomplete beta
// function directly so that small p-values keep their relative precision.
func tTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || !(df > 0):
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	}
	return mathext.RegIncBeta(df/2, 0.5, df/(df+t*t))
}

// tQuantile is scipy.stats.t.ppf(p, df) for 0 < p < 1.
func tQuantile(p, df float64) float64 {
	if !(df > 0) || !(p > 0 && p < 1) {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	q := math.Min(p, 1-p)
	x := mathext.InvRegIncBeta(df/2, 0.5, 2*q)
	t := math.Sqrt(df * (1 - x) / x)
	if p < 0.5 {
		return -t
	}
	return t
}

// normQuantile is scipy.stats.norm.ppf(p).
func normQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// normCDF is scipy.stats.norm.cdf(x).
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// binomCDF is P[X <= k] for X ~ Bin(n, p) (scipy.stats.binom.cdf) when
// k <= n·p: the probability of k by Loader's saddle-point formula (as R's
// dbinom; relative error near 1e-15 where lgamma differences lose digits
// for large n), then the terms below it by their exact ratios, summed
// until they no longer change the sum.
func binomCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	case float64(k) > float64(n)*p:
		// Not needed by this package; the regularized incomplete beta
		// function is exact enough above the mean.
		return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)
	}
	q := 1 - p
	term := binomPMF(k, n, p)
	sum := term
	for j := k; j > 0; j-- {
		term *= float64(j) / float64(n-j+1) * (q / p)
		sum += term
		if term < sum*1e-18 {
			break
		}
	}
	return math.Min(sum, 1)
}

// binomPMF is P[X = k] for X ~ Bin(n, p), by Catherine Loader's "Fast and
// accurate computation of binomial probabilities" (2000).
func binomPMF(k, n int, p float64) float64 {
	q := 1 - p
	switch k {
	case 0:
		return math.Exp(float64(n) * math.Log1p(-p))
	case n:
		return math.Exp(float64(n) * math.Log(p))
	}
	x, nf := float64(k), float64(n)
	lc := stirlerr(nf) - stirlerr(x) - stirlerr(nf-x) - bd0(x, nf*p) - bd0(nf-x, nf*q)
	lf := math.Log(2*math.Pi) + math.Log(x) + math.Log1p(-x/nf)
	return math.Exp(lc - 0.5*lf)
}

// stirlerr is log(n!) - log(sqrt(2πn)·(n/e)^n), the error of Stirling's
// formula (Loader).
func stirlerr(n float64) float64 {
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - 0.5*math.Log(2*math.Pi)
	}
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 is x·log(x/np) + np - x, computed without cancellation when x is
// near np (Loader).
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/np) + np - x
}

// nctCDF is P[T <= t] for the noncentral t distribution with df degrees
// of freedom and noncentrality delta (scipy.stats.nct.cdf), by Lenth's
// algorithm AS 243 (Applied Statistics 38, 1989) without its normal
// approximation for large df: the Poisson-weighted series of incomplete
// beta functions is summed until its error bound is below 1e-14.
func nctCDF(t, df, delta float64) float64 {
	if math.IsNaN(t) || !(df > 0) || math.IsNaN(delta) {
		return math.NaN()
	}
	if math.IsInf(t, 1) {
		return 1
	}
	if math.IsInf(t, -1) {
		return 0
	}
	neg := t < 0
	tt, del := t, delta
	if neg {
		tt, del = -t, -delta
	}
	const (
		itrmax = 10000
		errmax = 1e-14
	)
	sum := 0.0
	x := tt * tt / (tt*tt + df)
	if x > 0 {
		lambda := del * del
		p := 0.5 * math.Exp(-0.5*lambda)
		q := math.Sqrt(2/math.Pi) * p * del
		// s = 0.5 - p, the Poisson weights not yet summed (as expm1, which
		// keeps its precision when lambda is small).
		s := -0.5 * math.Expm1(-0.5*lambda)
		a, b := 0.5, 0.5*df
		rxb := math.Exp(b * math.Log1p(-x))
		lgb, _ := math.Lgamma(b)
		lgab, _ := math.Lgamma(0.5 + b)
		albeta := 0.5*math.Log(math.Pi) + lgb - lgab
		xodd := mathext.RegIncBeta(a, b, x)
		godd := 2 * rxb * math.Exp(a*math.Log(x)-albeta)
		xeven := -math.Expm1(b * math.Log1p(-x)) // 1 - rxb
		geven := b * x * rxb
		sum = p*xodd + q*xeven
		for en := 1.0; en <= itrmax; en++ {
			a++
			xodd -= godd
			xeven -= geven
			godd *= x * (a + b - 1) / a
			geven *= x * (a + b - 0.5) / (a + 0.5)
			p *= lambda / (2 * en)
			q *= lambda / (2*en + 1)
			s -= p
			sum += p*xodd + q*xeven
			if 2*s*(xodd-godd) <= errmax {
				break
			}
		}
	}
	sum += normCDF(-del)
	if neg {
		return 1 - sum
	}
	return math.Min(sum, 1)
}
