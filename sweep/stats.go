package sweep

import (
	"math"
	"slices"
)

// MeanUnc is the mean of n values given their sum and sum of squares, with
// its uncertainty as llama.cpp's perplexity tool computes it
// (mean_and_uncertainty): sqrt((sum2/n - mean^2) / (n-1)), and 0 for ten
// values or fewer.
func MeanUnc(sum, sum2 float64, n int) (mean, unc float64) {
	if n < 1 {
		return 0, 0
	}
	mean = sum / float64(n)
	v := sum2/float64(n) - mean*mean
	if v > 0 && n > 10 {
		unc = math.Sqrt(v / float64(n-1))
	}
	return mean, unc
}

// Cov is the covariance of two means from their sums and the sum of
// products, as llama.cpp's perplexity tool computes it: (sumab/n -
// mean_a*mean_b) / (n-1), and 0 below ten values.
func Cov(suma, sumb, sumab float64, n int) float64 {
	if n < 10 {
		return 0
	}
	nf := float64(n)
	return (sumab/nf - (suma/nf)*(sumb/nf)) / (nf - 1)
}

// Percentile interpolates linearly between the sorted values, as
// llama.cpp's perplexity tool does: fraction f of the way from the first
// to the last.
func Percentile(sorted []float64, f float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	if f <= 0 {
		return sorted[0]
	}
	if f >= 1 {
		return sorted[len(sorted)-1]
	}
	p := f * float64(len(sorted)-1)
	i := int(p)
	p -= float64(i)
	return (1-p)*sorted[i] + p*sorted[min(i+1, len(sorted)-1)]
}

// Median is the middle value of sorted values (the mean of the two middle
// ones for an even count).
func Median(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 0:
		return 0.5 * (sorted[n/2-1] + sorted[n/2])
	}
	return sorted[n/2]
}

// PPL is a perplexity with its uncertainty.
type PPL struct {
	PPL     float64 `json:"ppl"`
	PPLUnc  float64 `json:"ppl_stderr"`
	NLL     float64 `json:"mean_nll"` // mean negative log-likelihood per token
	NLLUnc  float64 `json:"mean_nll_stderr"`
	Tokens  int     `json:"tokens"`
	Windows int     `json:"windows,omitempty"` // chunks or rolling windows
}

// Perplexity summarises per-token log-probabilities: exp of the mean
// negative log-likelihood, with uncertainty ppl * stderr(mean nll) (the
// delta method, as llama.cpp).
func Perplexity(logProbs []float64) PPL {
	var s, s2 float64
	for _, lp := range logProbs {
		s += -lp
		s2 += lp * lp
	}
	m, u := MeanUnc(s, s2, len(logProbs))
	p := math.Exp(m)
	return PPL{PPL: p, PPLUnc: p * u, NLL: m, NLLUnc: u, Tokens: len(logProbs)}
}

// Divergence is llama.cpp's --kl-divergence report of a model against the
// base over the same positions, computed from exact base values.
type Divergence struct {
	Positions int `json:"positions"`

	// KL(base || model) per position. KLD is the estimate (the lower end of
	// each position's truncation interval, see docs/sweep.md), KLDUpper
	// the mean of the upper ends: the true mean lies in [KLD, KLDUpper].
	KLD      float64 `json:"kld_mean"`
	KLDUnc   float64 `json:"kld_mean_stderr"`
	KLDUpper float64 `json:"kld_mean_upper_bound"`
	KLDMed   float64 `json:"kld_median"`
	KLD90    float64 `json:"kld_p90"`
	KLD95    float64 `json:"kld_p95"`
	KLD99    float64 `json:"kld_p99"`
	KLD999   float64 `json:"kld_p99_9"`
	KLDMax   float64 `json:"kld_max"`
	KLDMin   float64 `json:"kld_min"`

	SameTop    float64 `json:"same_top"` // share of positions whose argmax agrees
	SameTopUnc float64 `json:"same_top_stderr"`

	// Δp = p_model(actual token) - p_base(actual token).
	DP      float64            `json:"dp_mean"`
	DPUnc   float64            `json:"dp_mean_stderr"`
	DPRMS   float64            `json:"dp_rms"`
	DPRMSUn float64            `json:"dp_rms_stderr"`
	DPPct   map[string]float64 `json:"dp_percentiles"` // "min", "1", "5", ..., "max"

	// ln(PPL(model)/PPL(base)) with the uncertainty from the correlation
	// of the per-token log-probs; the ratio and difference follow.
	LogPPLRatio    float64 `json:"ln_ppl_ratio"`
	LogPPLRatioUnc float64 `json:"ln_ppl_ratio_stderr"`
	PPLRatio       float64 `json:"ppl_ratio"`
	PPLRatioUnc    float64 `json:"ppl_ratio_stderr"`
	PPLDiff        float64 `json:"ppl_diff"`
	PPLDiffUnc     float64 `json:"ppl_diff_stderr"`
	Cor            float64 `json:"ln_ppl_correlation"`
}

// DPPercentiles are the Δp percentiles reported, as llama.cpp's tool.
var DPPercentiles = []struct {
	Name string
	F    float64
}{{"min", 0}, {"0.1", 0.001}, {"1", 0.01}, {"5", 0.05}, {"10", 0.1}, {"25", 0.25}, {"50", 0.5},
	{"75", 0.75}, {"90", 0.9}, {"95", 0.95}, {"99", 0.99}, {"99.9", 0.999}, {"max", 1}}

// Compare computes Divergence from per-position values: the base's and the
// model's log p of the actual token, the two argmaxes and the KLD interval
// ends. All slices have one entry per position.
func Compare(baseLP, modelLP []float64, baseTop, modelTop []int32, kldLow, kldHigh []float64) Divergence {
	n := len(baseLP)
	d := Divergence{Positions: n}
	if n == 0 {
		return d
	}
	var sK, sK2, sKU, sD, sD2, sD4 float64
	same := 0
	dps := make([]float64, n)
	for i := 0; i < n; i++ {
		sK += kldLow[i]
		sK2 += kldLow[i] * kldLow[i]
		sKU += kldHigh[i]
		if baseTop[i] == modelTop[i] {
			same++
		}
		dp := math.Exp(modelLP[i]) - math.Exp(baseLP[i])
		dps[i] = dp
		sD += dp
		sD2 += dp * dp
		sD4 += dp * dp * dp * dp
	}
	d.KLD, d.KLDUnc = MeanUnc(sK, sK2, n)
	d.KLDUpper = sKU / float64(n)
	k := slices.Clone(kldLow)
	slices.Sort(k)
	d.KLDMed, d.KLD90, d.KLD95 = Median(k), Percentile(k, 0.90), Percentile(k, 0.95)
	d.KLD99, d.KLD999 = Percentile(k, 0.99), Percentile(k, 0.999)
	d.KLDMin, d.KLDMax = k[0], k[n-1]

	d.SameTop = float64(same) / float64(n)
	if n > 1 {
		d.SameTopUnc = math.Sqrt(d.SameTop * (1 - d.SameTop) / float64(n-1))
	}

	d.DP, d.DPUnc = MeanUnc(sD, sD2, n)
	mse, mseUnc := MeanUnc(sD2, sD4, n)
	d.DPRMS = math.Sqrt(mse)
	if d.DPRMS > 0 {
		d.DPRMSUn = 0.5 / d.DPRMS * mseUnc
	}
	slices.Sort(dps)
	d.DPPct = map[string]float64{}
	for _, p := range DPPercentiles {
		if p.Name == "50" {
			d.DPPct[p.Name] = Median(dps)
		} else {
			d.DPPct[p.Name] = Percentile(dps, p.F)
		}
	}

	lq, lqUnc, lb, lbUnc, cov := logPPLs(baseLP, modelLP)
	if lqUnc > 0 && lbUnc > 0 {
		d.Cor = cov / (lqUnc * lbUnc)
	}
	d.LogPPLRatio = lq - lb
	d.LogPPLRatioUnc = math.Sqrt(math.Max(0, lqUnc*lqUnc+lbUnc*lbUnc-2*cov))
	d.PPLRatio = math.Exp(d.LogPPLRatio)
	d.PPLRatioUnc = d.PPLRatio * d.LogPPLRatioUnc
	pq, pb := math.Exp(lq), math.Exp(lb)
	pqU, pbU := pq*lqUnc, pb*lbUnc
	d.PPLDiff = pq - pb
	d.PPLDiffUnc = math.Sqrt(math.Max(0, pqU*pqU+pbU*pbU-2*pq*pb*cov))
	return d
}

// logPPLs returns the mean nll of the model and of the base with their
// uncertainties and covariance (llama.cpp's formulas).
func logPPLs(baseLP, modelLP []float64) (lq, lqUnc, lb, lbUnc, cov float64) {
	var sN, sN2, sB, sB2, sNB float64
	for i := range baseLP {
		nll, nllB := -modelLP[i], -baseLP[i]
		sN += nll
		sN2 += nll * nll
		sB += nllB
		sB2 += nllB * nllB
		sNB += nll * nllB
	}
	n := len(baseLP)
	lq, lqUnc = MeanUnc(sN, sN2, n)
	lb, lbUnc = MeanUnc(sB, sB2, n)
	return lq, lqUnc, lb, lbUnc, Cov(sN, sB, sNB, n)
}

// Ratio is PPL(model)/PPL(base) over the same tokens, with the
// uncertainty that the correlation of the per-token log-probs allows.
type Ratio struct {
	Ratio    float64 `json:"ppl_ratio"`
	RatioUnc float64 `json:"ppl_ratio_stderr"`
}

// PPLRatio compares per-token log-probs of a model and the base at the
// same positions, as llama.cpp's "Mean PPL(Q)/PPL(base)".
func PPLRatio(baseLP, modelLP []float64) Ratio {
	lq, lqUnc, lb, lbUnc, cov := logPPLs(baseLP, modelLP)
	r := math.Exp(lq - lb)
	return Ratio{Ratio: r, RatioUnc: r * math.Sqrt(math.Max(0, lqUnc*lqUnc+lbUnc*lbUnc-2*cov))}
}
