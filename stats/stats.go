// Package stats holds the paired statistics lmeval uses to compare two
// runs scored on the same documents: the mean per-document difference
// with an analytic and a bootstrap confidence interval, McNemar's exact
// test for 0/1 scores, the paired t-test for continuous ones,
// cluster-robust standard errors, the minimum detectable effect, and
// Holm's correction across tasks.
//
// Every statistic names the SciPy or statsmodels function it reproduces;
// stats/testdata holds vectors written by those functions
// (gen_vectors.py) that the tests replay without Python. The bootstrap is
// checked against its exact distribution and against
// scipy.stats.bootstrap within Monte Carlo error.
package stats

import (
	"encoding/json"
	"math"
	"slices"
)

// Options set how Compare works. Zero values take the defaults.
type Options struct {
	// Alpha is the significance level and 1-Alpha the confidence of the
	// intervals; default 0.05.
	Alpha float64
	// Power is the power the minimum detectable effect is computed for;
	// default 0.8.
	Power float64
	// Iters is the number of bootstrap replicates (default
	// DefaultIters; negative: no bootstrap).
	Iters int
	// Seed seeds the bootstrap.
	Seed uint64
	// Clusters, when not nil, names each document's cluster (one entry
	// per document) for cluster-robust standard errors.
	Clusters []int
}

func (o Options) withDefaults() Options {
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.Power == 0 {
		o.Power = 0.8
	}
	if o.Iters == 0 {
		o.Iters = DefaultIters
	}
	return o
}

// Test names.
const (
	TestMcNemar = "mcnemar_exact"
	TestPairedT = "paired_t"
)

// Result compares run B with run A over paired per-document scores.
// Differences are B - A.
type Result struct {
	// N counts the documents compared; Dropped those left out because a
	// score was NaN in either run.
	N, Dropped   int
	MeanA, MeanB float64
	Diff         float64 // mean(B - A) = MeanB - MeanA
	// SE is the analytic paired standard error, sd(B - A)/sqrt(N), and
	// [Low, High] the t interval around Diff (scipy.stats.ttest_rel).
	SE, Low, High float64
	// Boot is the paired bootstrap (nil when disabled or N is 0).
	Boot *BootstrapCI
	// Binary reports whether every score is 0 or 1.
	Binary bool
	// Test is TestMcNemar for binary scores, else TestPairedT; Statistic
	// is min(B, C) or the t statistic, P its two-sided p-value.
	Test      string
	Statistic float64
	P         float64
	// McNemar holds the discordant counts of binary scores.
	McNemar *McNemar
	// Cluster is the cluster-robust inference when clusters were given.
	Cluster *Clustered
	// MDE is the minimum detectable effect at the run's size (paired
	// t-test, the given power and Alpha, the observed spread of the
	// differences).
	MDE float64

	// Replicates are the bootstrap replicates of Diff, in replicate
	// order (for combining tasks into a group; not written as JSON).
	Replicates []float64
}

// Compare compares per-document scores b with a (same length, same
// documents in the same order). Pairs with a NaN on either side are left
// out (as SciPy's nan_policy='omit'). o.Clusters, when set, must have one
// entry per document.
func Compare(a, b []float64, o Options) Result {
	o = o.withDefaults()
	var as, bs, d []float64
	var cl []int
	r := Result{Binary: true}
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			r.Dropped++
			continue
		}
		as = append(as, a[i])
		bs = append(bs, b[i])
		d = append(d, b[i]-a[i])
		if o.Clusters != nil {
			cl = append(cl, o.Clusters[i])
		}
		if !isBit(a[i]) || !isBit(b[i]) {
			r.Binary = false
		}
	}
	r.N = len(d)
	r.MeanA, _ = meanSD(as)
	r.MeanB, _ = meanSD(bs)
	t := PairedT(d, o.Alpha)
	r.Diff, r.SE, r.Low, r.High = t.Mean, t.SE, t.Low, t.High
	if r.N == 0 {
		r.Binary = false
	}
	if r.Binary {
		m := McNemarExact(as, bs)
		r.McNemar = &m
		r.Test, r.Statistic, r.P = TestMcNemar, float64(min(m.B, m.C)), m.P
	} else {
		r.Test, r.Statistic, r.P = TestPairedT, t.T, t.P
	}
	if o.Clusters != nil {
		c := ClusteredT(d, cl, o.Alpha)
		r.Cluster = &c
	}
	r.MDE = MDE(r.N, t.SD, o.Alpha, o.Power)
	if o.Iters > 0 && r.N > 0 {
		r.Replicates = Bootstrap(d, o.Iters, o.Seed)
		ci := PercentileCI(r.Replicates, o.Alpha)
		r.Boot = &ci
	}
	return r
}

func isBit(v float64) bool { return v == 0 || v == 1 }

// IsMean reports whether score is the mean of the finite values (within
// 1e-9, relative), or is NaN while some value is: whether a metric's score
// averages its per-document values, which the paired statistics of those
// values assume. Corpus-level scores (perplexity, BLEU) do not.
func IsMean(values []float64, score float64) bool {
	s, n, nan := 0.0, 0, false
	for _, v := range values {
		if math.IsNaN(v) {
			nan = true
			continue
		}
		s += v
		n++
	}
	if math.IsNaN(score) {
		return nan
	}
	if n == 0 {
		return false
	}
	return math.Abs(s/float64(n)-score) <= 1e-9*math.Max(1, math.Abs(score))
}

// BootstrapCI summarises bootstrap replicates as scipy.stats.bootstrap
// does with method='percentile': the alpha/2 and 1-alpha/2 percentiles
// (numpy's linear interpolation) and the standard deviation of the
// replicates (ddof = 1) as the standard error.
type BootstrapCI struct {
	Iters     int
	Low, High float64
	SE        float64
}

// PercentileCI is the percentile interval of replicates at level
// 1-alpha.
func PercentileCI(reps []float64, alpha float64) BootstrapCI {
	s := slices.Clone(reps)
	slices.Sort(s)
	_, sd := meanSD(s)
	return BootstrapCI{Iters: len(s), Low: Percentile(s, alpha/2), High: Percentile(s, 1-alpha/2), SE: sd}
}

// Percentile is numpy.percentile(sorted, 100·q) with linear
// interpolation; NaN for no values.
func Percentile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return sorted[n-1]
	}
	if i < 0 {
		return sorted[0]
	}
	lo, hi := sorted[i], sorted[i+1]
	// numpy's _lerp: exact at both ends.
	f := h - float64(i)
	if f >= 0.5 {
		return hi - (hi-lo)*(1-f)
	}
	return lo + (hi-lo)*f
}

// Number is a float64 that is written to JSON as null when it is NaN or
// infinite (which JSON cannot hold).
type Number float64

// MarshalJSON implements json.Marshaler.
func (x Number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads null as NaN.
func (x *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Number(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*x = Number(f)
	return nil
}

// TestStratifiedZ names the z-test of a stratified difference.
const TestStratifiedZ = "stratified_z"

// Stratified combines independent strata (the tasks of a group, each
// compared by Compare) into the weighted mean difference Σ_t w_t·Diff_t
// (weights summing to 1), as a group averages its tasks:
//
//   - SE = sqrt(Σ_t w_t²·SE_t²), the strata being independent samples;
//   - the interval Diff ± z(1-alpha/2)·SE and the two-sided z-test
//     (scipy.stats.norm.sf(|Diff/SE|) * 2; Statistic is Diff/SE);
//   - MDE = MDENormal(SE, alpha, power);
//   - the stratified bootstrap: replicate r is Σ_t w_t·(replicate r of
//     stratum t), each stratum resampled on its own (when every stratum
//     has the same number of replicates).
//
// MeanA and MeanB are the weighted means, N and Dropped the sums.
func Stratified(parts []Result, weights []float64, alpha, power float64) Result {
	if alpha == 0 {
		alpha = 0.05
	}
	if power == 0 {
		power = 0.8
	}
	r := Result{Test: TestStratifiedZ, Binary: len(parts) > 0}
	v := 0.0
	var reps [][]float64
	for i, p := range parts {
		w := weights[i]
		r.N += p.N
		r.Dropped += p.Dropped
		r.MeanA += w * p.MeanA
		r.MeanB += w * p.MeanB
		r.Diff += w * p.Diff
		v += w * w * p.SE * p.SE
		r.Binary = r.Binary && p.Binary
		reps = append(reps, p.Replicates)
	}
	r.SE = math.Sqrt(v)
	z := normQuantile(1 - alpha/2)
	r.Low, r.High = r.Diff-z*r.SE, r.Diff+z*r.SE
	r.Statistic = r.Diff / r.SE
	r.P = 2 * normCDF(-math.Abs(r.Statistic))
	if r.SE == 0 || math.IsNaN(r.SE) {
		r.P = math.NaN()
	}
	r.MDE = MDENormal(r.SE, alpha, power)
	if rep := CombineReplicates(reps, weights); rep != nil {
		r.Replicates = rep
		ci := PercentileCI(rep, alpha)
		r.Boot = &ci
	}
	return r
}

// CombineReplicates is the stratified bootstrap of a weighted sum of
// strata: replicate r is Σ_t w_t·reps[t][r]. Nil unless every stratum has
// the same, nonzero number of replicates.
func CombineReplicates(reps [][]float64, weights []float64) []float64 {
	if len(reps) == 0 || len(reps[0]) == 0 {
		return nil
	}
	out := make([]float64, len(reps[0]))
	for t, rt := range reps {
		if len(rt) != len(out) {
			return nil
		}
		for i, x := range rt {
			out[i] += weights[t] * x
		}
	}
	return out
}
