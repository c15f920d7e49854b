package stats

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquare tests observed counts against expected probabilities (cells
// with small expectations merged into their neighbours) and fails when
// the statistic exceeds its 1 - 1e-6 quantile. The draws come from fixed
// seeds, so the outcome is fixed too; a sampler off by even a small bias
// fails at these sample sizes.
func chiSquare(t *testing.T, what string, observed map[int]int, prob map[int]float64, total int) {
	t.Helper()
	if err := chiSquareErr(observed, prob, total); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

func chiSquareErr(observed map[int]int, prob map[int]float64, total int) error {
	var keys []int
	for k := range prob {
		keys = append(keys, k)
	}
	for k := range observed {
		if _, ok := prob[k]; !ok {
			return fmt.Errorf("drew %d, which has probability 0", k)
		}
	}
	sort.Ints(keys)
	type cell struct{ o, e float64 }
	var cells []cell
	var cur cell
	for _, k := range keys {
		cur.o += float64(observed[k])
		cur.e += prob[k] * float64(total)
		if cur.e >= 20 {
			cells = append(cells, cur)
			cur = cell{}
		}
	}
	if cur.e > 0 && len(cells) > 0 {
		cells[len(cells)-1].o += cur.o
		cells[len(cells)-1].e += cur.e
	}
	if len(cells) < 2 {
		return fmt.Errorf("%d cells, too few for the test", len(cells))
	}
	stat := 0.0
	for _, c := range cells {
		stat += (c.o - c.e) * (c.o - c.e) / c.e
	}
	crit := distuv.ChiSquared{K: float64(len(cells) - 1)}.Quantile(1 - 1e-6)
	if stat > crit {
		return fmt.Errorf("χ² = %.1f over %d cells, above the 1-1e-6 quantile %.1f", stat, len(cells), crit)
	}
	return nil
}

func TestBinomialSampler(t *testing.T) {
	for _, c := range []struct {
		n int
		p float64
	}{{20, 0.3}, {50, 0.9}, {100, 0.15}, {1000, 0.5}, {5000, 0.7}, {100000, 0.02}, {1 << 20, 0.37}} {
		const draws = 200000
		r := streamRNG(99, uint64(c.n))
		obs := map[int]int{}
		for i := 0; i < draws; i++ {
			obs[binomial(c.n, c.p, &r)]++
		}
		prob := map[int]float64{}
		for k := 0; k <= c.n; k++ {
			var f float64
			if c.p > 0.5 {
				f = binomPMF(c.n-k, c.n, 1-c.p)
			} else {
				f = binomPMF(k, c.n, c.p)
			}
			if f > 1e-300 {
				prob[k] = f
			}
		}
		chiSquare(t, fmt.Sprintf("Bin(%d, %v)", c.n, c.p), obs, prob, draws)
	}
}

// exactBootstrap enumerates the bootstrap distribution of the resample sum
// of d (small n): every multinomial count vector over the distinct values
// with its probability. Sums are keyed in units of 1e-9.
func exactBootstrap(d []float64) map[int]float64 {
	vals, counts := distinct(d)
	n := len(d)
	out := map[int]float64{}
	lf := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	var rec func(k, left int, sum, logp float64)
	rec = func(k, left int, sum, logp float64) {
		if k == len(vals)-1 {
			logp += float64(left)*math.Log(float64(counts[k])/float64(n)) - lf(left)
			sum += vals[k] * float64(left)
			out[int(math.Round(sum*1e9))] += math.Exp(logp + lf(n))
			return
		}
		for m := 0; m <= left; m++ {
			rec(k+1, left-m, sum+vals[k]*float64(m), logp+float64(m)*math.Log(float64(counts[k])/float64(n))-lf(m))
		}
	}
	rec(0, n, 0, 0)
	return out
}

// Both samplers must draw the bootstrap distribution itself: tested
// against the exact distribution, enumerated, for 0/1 differences and for
// continuous ones.
func TestBootstrapExactDistribution(t *testing.T) {
	for _, d := range [][]float64{
		{-1, -1, 0, 0, 0, 1, 1},
		{-1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1},
		{0.1, 0.25, 0.7, 1.3, -0.4},
		{0.5, 0.5, 0.5, -0.25, 2},
	} {
		want := exactBootstrap(d)
		for _, s := range []struct {
			name string
			fn   func([]float64, int, uint64) []float64
		}{{"naive", bootstrapNaive}, {"multinomial", bootstrapMultinomial}} {
			const iters = 200000
			reps := s.fn(d, iters, 5)
			obs := map[int]int{}
			for _, m := range reps {
				obs[int(math.Round(m*float64(len(d))*1e9))]++
			}
			chiSquare(t, fmt.Sprintf("%s bootstrap of %v", s.name, d), obs, want, iters)
		}
	}
}

// The multinomial shortcut at scale: the replicates' mean and variance
// are the bootstrap's exactly known ones, mean(d) and var(d)/n (ddof 0),
// within Monte Carlo error; the naive sampler on the same data agrees.
func TestBootstrapMoments(t *testing.T) {
	n := 100000
	d := make([]float64, n)
	r := streamRNG(3, 3)
	for i := range d {
		switch u := r.float(); {
		case u < 0.07:
			d[i] = -1
		case u < 0.16:
			d[i] = 1
		}
	}
	mean, sd := meanSD(d)
	pv := sd * sd * float64(n-1) / float64(n) / float64(n) // variance of a replicate
	for _, s := range []struct {
		name  string
		fn    func([]float64, int, uint64) []float64
		iters int
	}{{"multinomial", bootstrapMultinomial, 20000}, {"naive", bootstrapNaive, 2000}, {"auto", Bootstrap, 20000}} {
		iters := float64(s.iters)
		m, rsd := meanSD(s.fn(d, s.iters, 11))
		if z := (m - mean) / math.Sqrt(pv/iters); math.Abs(z) > 5 {
			t.Errorf("%s: replicate mean %.6g, bootstrap mean %.6g (z = %.1f)", s.name, m, mean, z)
		}
		// The sample variance of iters draws has relative sd sqrt(2/iters).
		if z := (rsd*rsd/pv - 1) / math.Sqrt(2.0/iters); math.Abs(z) > 5 {
			t.Errorf("%s: replicate variance %.6g, bootstrap variance %.6g (z = %.1f)", s.name, rsd*rsd, pv, z)
		}
	}
}

func TestBootstrapDeterministic(t *testing.T) {
	d := []float64{0.1, 0.5, 0.2, 0.9, 0.3, 0.3, 0.7}
	bin := make([]float64, 2000)
	for i := range bin {
		bin[i] = float64(i%3 - 1)
	}
	for _, x := range [][]float64{d, bin} {
		prev := runtime.GOMAXPROCS(1)
		one := Bootstrap(x, 3000, 42)
		runtime.GOMAXPROCS(4)
		four := Bootstrap(x, 3000, 42)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(one, four) {
			t.Errorf("replicates depend on GOMAXPROCS")
		}
		if other := Bootstrap(x, 3000, 43); slices.Equal(one, other) {
			t.Errorf("seed ignored")
		}
	}
	if got := Bootstrap([]float64{0.5, 0.5}, 10, 1); len(got) != 10 || got[0] != 0.5 || got[9] != 0.5 {
		t.Errorf("constant differences: %v", got)
	}
	if Bootstrap(nil, 10, 1) != nil {
		t.Errorf("no differences: want no replicates")
	}
}

func TestBoundedUnbiased(t *testing.T) {
	// n = 3·2^30 makes 2^32 mod n = 2^30: a quarter of the 32-bit values
	// are rejected, and an unbiased bound puts a third of the draws in
	// each of [0, 2^30), [2^30, 2^31), [2^31, n).
	n := uint32(3 << 30)
	thresh := -n % n
	r := streamRNG(1, 1)
	var cnt [3]int
	const draws = 300000
	for i := 0; i < draws; i++ {
		cnt[bounded(uint32(r.next()), n, thresh, &r)>>30]++
	}
	third := map[int]float64{0: 1.0 / 3, 1: 1.0 / 3, 2: 1.0 / 3}
	chiSquare(t, "bounded thirds", map[int]int{0: cnt[0], 1: cnt[1], 2: cnt[2]}, third, draws)

	// The test has teeth: the biased x mod n of the same draws fails it.
	cnt = [3]int{}
	for i := 0; i < draws; i++ {
		cnt[uint32(r.next())%n>>30]++
	}
	if chiSquareErr(map[int]int{0: cnt[0], 1: cnt[1], 2: cnt[2]}, third, draws) == nil {
		t.Errorf("the χ² test did not catch modulo bias")
	}
}

// BenchmarkBootstrap: one op is 10,000 replicates over 100,000 paired
// documents. cpu-s/op is the process's user+system CPU time per op (all
// threads), wall time is ns/op.
func BenchmarkBootstrap(b *testing.B) {
	const n, iters = 100000, DefaultIters
	r := streamRNG(8, 8)
	binary := make([]float64, n)
	cont := make([]float64, n)
	for i := range binary {
		bit := func(pct uint64) float64 {
			if r.next()%100 < pct {
				return 1
			}
			return 0
		}
		binary[i] = bit(62) - bit(60)
		cont[i] = r.float() - r.float()
	}
	for _, c := range []struct {
		name string
		d    []float64
		fn   func([]float64, int, uint64) []float64
	}{
		{"binary", binary, Bootstrap},
		{"binary-naive", binary, bootstrapNaive},
		{"continuous", cont, Bootstrap},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.fn(c.d, iters, uint64(i))
			}
			b.StopTimer()
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
