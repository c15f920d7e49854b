package sweep

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func TestMeanUncByHand(t *testing.T) {
	// Twelve values: 1..12. mean 6.5; population variance (n^2-1)/12 =
	// 143/12; uncertainty sqrt(143/12/11) = sqrt(13/12).
	var s, s2 float64
	for i := 1; i <= 12; i++ {
		s += float64(i)
		s2 += float64(i * i)
	}
	m, u := MeanUnc(s, s2, 12)
	if m != 6.5 || !near(u, math.Sqrt(13.0/12), 1e-14) {
		t.Errorf("MeanUnc(1..12) = %v ± %v, want 6.5 ± %v", m, u, math.Sqrt(13.0/12))
	}
	// llama.cpp reports no uncertainty for ten values or fewer.
	if _, u := MeanUnc(55, 385, 10); u != 0 {
		t.Errorf("ten values: uncertainty %v, want 0", u)
	}
	// Cov of (1..12) with itself is its variance over n-1.
	if c := Cov(s, s, s2, 12); !near(c, 143.0/12/11, 1e-14) {
		t.Errorf("Cov = %v", c)
	}
}

func TestPercentileByHand(t *testing.T) {
	v := []float64{1, 2, 4, 8, 16}
	for _, tc := range []struct{ f, want float64 }{
		{0, 1}, {1, 16}, {0.5, 4}, {0.25, 2}, {0.9, 8 + 0.6*8}, {0.99, 8 + 0.96*8},
	} {
		if got := Percentile(v, tc.f); !near(got, tc.want, 1e-12) {
			t.Errorf("Percentile(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
	if Median(v) != 4 || Median([]float64{1, 2, 4, 8}) != 3 {
		t.Errorf("Median")
	}
}

func TestPerplexityByHand(t *testing.T) {
	// nll = 1..12: ppl = e^6.5, uncertainty e^6.5 * sqrt(13/12).
	var lps []float64
	for i := 1; i <= 12; i++ {
		lps = append(lps, -float64(i))
	}
	p := Perplexity(lps)
	if !near(p.PPL, math.Exp(6.5), 1e-14) || !near(p.PPLUnc, math.Exp(6.5)*math.Sqrt(13.0/12), 1e-12) {
		t.Errorf("Perplexity = %+v", p)
	}
}

// Compare against every statistic worked out directly from its definition.
func TestCompareByHand(t *testing.T) {
	n := 40
	baseLP := make([]float64, n)
	modelLP := make([]float64, n)
	baseTop := make([]int32, n)
	modelTop := make([]int32, n)
	kl := make([]float64, n)
	klHi := make([]float64, n)
	for i := 0; i < n; i++ {
		x := float64(i)
		baseLP[i] = -0.1 - 0.05*x
		modelLP[i] = baseLP[i] - 0.01*math.Sin(x) - 0.002*x
		baseTop[i] = int32(i % 7)
		modelTop[i] = int32(i % 7)
		if i%5 == 0 {
			modelTop[i] = 99
		}
		kl[i] = 0.001 * (1 + math.Cos(x)) * (1 + x/10)
		klHi[i] = kl[i] + 0.0005
	}
	d := Compare(baseLP, modelLP, baseTop, modelTop, kl, klHi)

	mean := func(f func(i int) float64) float64 {
		s := 0.0
		for i := 0; i < n; i++ {
			s += f(i)
		}
		return s / float64(n)
	}
	// Sample statistics straight from the definitions.
	sem := func(f func(i int) float64) float64 {
		m := mean(f)
		v := mean(func(i int) float64 { return (f(i) - m) * (f(i) - m) })
		return math.Sqrt(v / float64(n-1))
	}
	kf := func(i int) float64 { return kl[i] }
	if !near(d.KLD, mean(kf), 1e-12) || !near(d.KLDUnc, sem(kf), 1e-9) || !near(d.KLDUpper, mean(kf)+0.0005, 1e-12) {
		t.Errorf("KLD %v ± %v (upper %v), want %v ± %v", d.KLD, d.KLDUnc, d.KLDUpper, mean(kf), sem(kf))
	}
	if d.SameTop != 32.0/40 || !near(d.SameTopUnc, math.Sqrt(0.8*0.2/39), 1e-12) {
		t.Errorf("same top %v ± %v", d.SameTop, d.SameTopUnc)
	}
	dp := func(i int) float64 { return math.Exp(modelLP[i]) - math.Exp(baseLP[i]) }
	if !near(d.DP, mean(dp), 1e-12) || !near(d.DPUnc, sem(dp), 1e-9) {
		t.Errorf("Δp %v ± %v, want %v ± %v", d.DP, d.DPUnc, mean(dp), sem(dp))
	}
	if !near(d.DPRMS, math.Sqrt(mean(func(i int) float64 { return dp(i) * dp(i) })), 1e-12) {
		t.Errorf("RMS Δp %v", d.DPRMS)
	}
	// ln ratio: mean of nll differences; its uncertainty is the standard
	// error of the per-token differences (var(a)+var(b)-2cov(a,b)).
	diff := func(i int) float64 { return baseLP[i] - modelLP[i] }
	if !near(d.LogPPLRatio, mean(diff), 1e-12) || !near(d.LogPPLRatioUnc, sem(diff), 1e-7) {
		t.Errorf("ln ratio %v ± %v, want %v ± %v", d.LogPPLRatio, d.LogPPLRatioUnc, mean(diff), sem(diff))
	}
	if !near(d.PPLRatio, math.Exp(mean(diff)), 1e-12) || !near(d.PPLRatioUnc, math.Exp(mean(diff))*sem(diff), 1e-7) {
		t.Errorf("ratio %v ± %v", d.PPLRatio, d.PPLRatioUnc)
	}
	// Correlation of the two nll series.
	na := func(i int) float64 { return -modelLP[i] }
	nb := func(i int) float64 { return -baseLP[i] }
	ma, mb := mean(na), mean(nb)
	cov := mean(func(i int) float64 { return (na(i) - ma) * (nb(i) - mb) })
	va := mean(func(i int) float64 { return (na(i) - ma) * (na(i) - ma) })
	vb := mean(func(i int) float64 { return (nb(i) - mb) * (nb(i) - mb) })
	if !near(d.Cor, cov/math.Sqrt(va*vb), 1e-9) {
		t.Errorf("correlation %v, want %v", d.Cor, cov/math.Sqrt(va*vb))
	}
	if !near(d.PPLDiff, math.Exp(ma)-math.Exp(mb), 1e-12) {
		t.Errorf("ppl diff %v", d.PPLDiff)
	}
	if d.KLDMax != maxOf(kl) || d.DPPct["max"] != maxOf(dpAll(dp, n)) {
		t.Errorf("maxima %v %v", d.KLDMax, d.DPPct["max"])
	}
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func dpAll(f func(int) float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func mean(f func(int) float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += f(i)
	}
	return s / float64(n)
}
