package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"testing"
)

// vectors.json is written by testdata/gen_vectors.py from SciPy and
// statsmodels (versions recorded in the file); null is NaN.
type vectors struct {
	SciPy       string `json:"scipy"`
	Statsmodels string `json:"statsmodels"`
	TTest       []struct {
		Name                          string
		A, B                          []Number
		Alpha                         float64
		N, DF                         int
		Mean, SD, SE, T, P, Low, High Number
	} `json:"ttest"`
	McNemar []struct {
		B, C       int
		P          Number
		PBinomtest *float64 `json:"p_binomtest"`
	} `json:"mcnemar"`
	Cluster []struct {
		Name                string
		D                   []Number
		Groups              []int
		Alpha               float64
		Clusters            int
		SE, T, P, Low, High Number
	} `json:"cluster"`
	Holm []struct {
		P, Adjusted []Number
	} `json:"holm"`
	Power []struct {
		ES    float64 `json:"es"`
		N     int
		Alpha float64
		Power Number
	} `json:"power"`
	MDE []struct {
		N                int
		SD, Alpha, Power float64
		ES, MDE          Number
		SolvePowerES     Number `json:"solve_power_es"`
	} `json:"mde"`
	MDENormal []struct {
		SE, Alpha, Power float64
		ES, MDE          Number
		SolvePowerES     Number `json:"solve_power_es"`
	} `json:"mde_normal"`
	Bootstrap []struct {
		Name          string
		D             []Number
		Alpha         float64
		Resamples     int
		Low, High, SE Number
	} `json:"bootstrap"`
	Percentile []struct {
		X     []Number
		Q     []float64
		Value []Number
	} `json:"percentile"`
	Stratified []struct {
		Name  string
		Parts []struct {
			A, B []Number
		}
		Weights                           []float64
		Alpha, Power                      float64
		Diff, SE, Statistic, P, Low, High Number
		MDE                               Number
	} `json:"stratified"`
	Compare []struct {
		Name                string
		A, B                []Number
		Alpha, Power        float64
		N, Dropped          int
		MeanA               Number `json:"mean_a"`
		MeanB               Number `json:"mean_b"`
		Diff, SE, Low, High Number
		Binary              bool
		Test                string
		McNemarB            int `json:"mcnemar_b"`
		McNemarC            int `json:"mcnemar_c"`
		Statistic, P, MDE   Number
		Clusters            []int
		Cluster             *struct {
			Clusters            int
			SE, T, P, Low, High Number
		}
	} `json:"compare"`
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("testdata/vectors.json: %v", err)
	}
	return &v
}

func floats(xs []Number) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// deviation records the largest absolute deviation from the references
// per group of statistics, printed by TestVectorsSummary.
var deviation = struct {
	sync.Mutex
	max map[string]float64
}{max: map[string]float64{}}

// near checks got against a reference value: both NaN, equal infinities,
// or within tol relative to max(1, |want|).
func near(t *testing.T, group, what string, got float64, want Number, tol float64) {
	t.Helper()
	w := float64(want)
	switch {
	case math.IsNaN(w):
		// null: SciPy's NaN or an infinity (JSON holds neither).
		if !math.IsNaN(got) && !math.IsInf(got, 0) {
			t.Errorf("%s: got %v, want NaN or ±Inf (null in the vectors)", what, got)
		}
		return
	case math.IsNaN(got):
		t.Errorf("%s: got NaN, want %v", what, w)
		return
	}
	dev := math.Abs(got - w)
	deviation.Lock()
	deviation.max[group] = math.Max(deviation.max[group], dev)
	deviation.Unlock()
	if dev > tol*math.Max(1, math.Abs(w)) {
		t.Errorf("%s: got %.17g, want %.17g (|Δ| %.3g)", what, got, w, dev)
	}
}

func dropNaN(a, b []float64) []float64 {
	var d []float64
	for i := range a {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			d = append(d, b[i]-a[i])
		}
	}
	return d
}

func TestVectorsTTest(t *testing.T) {
	for _, c := range loadVectors(t).TTest {
		r := PairedT(dropNaN(floats(c.A), floats(c.B)), c.Alpha)
		if r.N != c.N || r.DF != c.DF {
			t.Errorf("%s: n %d df %d, want %d %d", c.Name, r.N, r.DF, c.N, c.DF)
		}
		for _, f := range []struct {
			what string
			got  float64
			want Number
		}{{"mean", r.Mean, c.Mean}, {"sd", r.SD, c.SD}, {"se", r.SE, c.SE}, {"t", r.T, c.T},
			{"p", r.P, c.P}, {"low", r.Low, c.Low}, {"high", r.High, c.High}} {
			near(t, "ttest_rel", c.Name+" "+f.what, f.got, f.want, 1e-10)
		}
	}
}

func TestVectorsMcNemar(t *testing.T) {
	for _, c := range loadVectors(t).McNemar {
		p := McNemarP(c.B, c.C)
		near(t, "mcnemar", fmt.Sprintf("b=%d c=%d", c.B, c.C), p, c.P, 1e-12)
		if c.PBinomtest != nil {
			near(t, "mcnemar", fmt.Sprintf("b=%d c=%d binomtest", c.B, c.C), p, Number(*c.PBinomtest), 1e-12)
		}
	}
}

func TestVectorsCluster(t *testing.T) {
	for _, c := range loadVectors(t).Cluster {
		r := ClusteredT(floats(c.D), c.Groups, c.Alpha)
		if r.Clusters != c.Clusters {
			t.Errorf("%s: %d clusters, want %d", c.Name, r.Clusters, c.Clusters)
		}
		for _, f := range []struct {
			what string
			got  float64
			want Number
		}{{"se", r.SE, c.SE}, {"t", r.T, c.T}, {"p", r.P, c.P}, {"low", r.Low, c.Low}, {"high", r.High, c.High}} {
			near(t, "cluster OLS", c.Name+" "+f.what, f.got, f.want, 1e-10)
		}
	}
}

func TestVectorsHolm(t *testing.T) {
	for _, c := range loadVectors(t).Holm {
		got := Holm(floats(c.P))
		for i := range got {
			near(t, "holm", fmt.Sprintf("%v [%d]", floats(c.P), i), got[i], c.Adjusted[i], 1e-14)
		}
	}
}

func TestVectorsPower(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Power {
		near(t, "power", fmt.Sprintf("TTestPower(%v, %d)", c.ES, c.N), TTestPower(c.ES, c.N, c.Alpha), c.Power, 1e-10)
	}
	// The references solve statsmodels' power functions to full precision;
	// statsmodels' solve_power stops earlier, and the distance to its
	// answer is only logged.
	loose := 0.0
	for _, c := range v.MDE {
		got := MDE(c.N, c.SD, c.Alpha, c.Power)
		near(t, "mde", fmt.Sprintf("MDE(n=%d, sd=%v, alpha=%v, power=%v)", c.N, c.SD, c.Alpha, c.Power), got, c.MDE, 1e-9)
		loose = math.Max(loose, math.Abs(got/c.SD-float64(c.SolvePowerES)))
	}
	for _, c := range v.MDENormal {
		got := MDENormal(c.SE, c.Alpha, c.Power)
		near(t, "mde", fmt.Sprintf("MDENormal(se=%v, alpha=%v, power=%v)", c.SE, c.Alpha, c.Power), got, c.MDE, 1e-9)
		loose = math.Max(loose, math.Abs(got/c.SE-float64(c.SolvePowerES)))
	}
	t.Logf("largest distance to statsmodels' own solve_power (effect size units): %.3g", loose)
}

func TestVectorsCompare(t *testing.T) {
	for _, c := range loadVectors(t).Compare {
		o := Options{Alpha: c.Alpha, Power: c.Power, Iters: -1, Clusters: c.Clusters}
		r := Compare(floats(c.A), floats(c.B), o)
		if r.N != c.N || r.Dropped != c.Dropped || r.Binary != c.Binary || r.Test != c.Test {
			t.Errorf("%s: n %d dropped %d binary %v test %s, want %d %d %v %s", c.Name, r.N, r.Dropped, r.Binary, r.Test, c.N, c.Dropped, c.Binary, c.Test)
		}
		if c.Binary && (r.McNemar == nil || r.McNemar.B != c.McNemarB || r.McNemar.C != c.McNemarC) {
			t.Errorf("%s: McNemar %+v, want b=%d c=%d", c.Name, r.McNemar, c.McNemarB, c.McNemarC)
		}
		for _, f := range []struct {
			what string
			got  float64
			want Number
		}{{"mean_a", r.MeanA, c.MeanA}, {"mean_b", r.MeanB, c.MeanB}, {"diff", r.Diff, c.Diff}, {"se", r.SE, c.SE},
			{"low", r.Low, c.Low}, {"high", r.High, c.High}, {"statistic", r.Statistic, c.Statistic}, {"p", r.P, c.P},
			{"mde", r.MDE, c.MDE}} {
			near(t, "compare", c.Name+" "+f.what, f.got, f.want, 1e-8)
		}
		if (c.Cluster == nil) != (r.Cluster == nil) {
			t.Errorf("%s: cluster %+v, want %+v", c.Name, r.Cluster, c.Cluster)
			continue
		}
		if c.Cluster != nil {
			if r.Cluster.Clusters != c.Cluster.Clusters {
				t.Errorf("%s: %d clusters, want %d", c.Name, r.Cluster.Clusters, c.Cluster.Clusters)
			}
			for _, f := range []struct {
				what string
				got  float64
				want Number
			}{{"cluster se", r.Cluster.SE, c.Cluster.SE}, {"cluster t", r.Cluster.T, c.Cluster.T},
				{"cluster p", r.Cluster.P, c.Cluster.P}, {"cluster low", r.Cluster.Low, c.Cluster.Low},
				{"cluster high", r.Cluster.High, c.Cluster.High}} {
				near(t, "compare", c.Name+" "+f.what, f.got, f.want, 1e-10)
			}
		}
	}
}

func TestVectorsPercentile(t *testing.T) {
	for _, c := range loadVectors(t).Percentile {
		for i, q := range c.Q {
			near(t, "percentile", fmt.Sprintf("Percentile(%d values, %v)", len(c.X), q), Percentile(floats(c.X), q), c.Value[i], 1e-12)
		}
	}
}

func TestVectorsStratified(t *testing.T) {
	for _, c := range loadVectors(t).Stratified {
		var parts []Result
		for _, p := range c.Parts {
			parts = append(parts, Compare(floats(p.A), floats(p.B), Options{Alpha: c.Alpha, Power: c.Power, Iters: 500, Seed: uint64(len(parts))}))
		}
		r := Stratified(parts, c.Weights, c.Alpha, c.Power)
		for _, f := range []struct {
			what string
			got  float64
			want Number
		}{{"diff", r.Diff, c.Diff}, {"se", r.SE, c.SE}, {"statistic", r.Statistic, c.Statistic}, {"p", r.P, c.P},
			{"low", r.Low, c.Low}, {"high", r.High, c.High}, {"mde", r.MDE, c.MDE}} {
			near(t, "stratified", c.Name+" "+f.what, f.got, f.want, 1e-9)
		}
		// The stratified bootstrap is the weighted sum of the strata's
		// replicates, replicate by replicate.
		if r.Boot == nil || len(r.Replicates) != 500 {
			t.Fatalf("%s: no stratified bootstrap", c.Name)
		}
		for i := range r.Replicates {
			want := 0.0
			for k, p := range parts {
				want += c.Weights[k] * p.Replicates[i]
			}
			if math.Abs(r.Replicates[i]-want) > 1e-15 {
				t.Fatalf("%s: replicate %d = %v, want %v", c.Name, i, r.Replicates[i], want)
			}
		}
	}
}

// The bootstrap cannot match SciPy draw for draw (different generators);
// with the same number of resamples both intervals estimate the same
// percentiles, so they must agree within Monte Carlo error: the quantile
// estimate's standard error is sqrt(q(1-q)/B)/f(x_q), about 0.006 bootstrap
// SEs at q = 0.025 and B = 200,000; the bound is 6 standard errors of the
// difference of two such estimates.
func TestVectorsBootstrap(t *testing.T) {
	for _, c := range loadVectors(t).Bootstrap {
		d := floats(c.D)
		ci := PercentileCI(Bootstrap(d, c.Resamples, 7), c.Alpha)
		sd := float64(c.SE)
		q := c.Alpha / 2
		z := normQuantile(1 - q)
		dens := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) / sd
		tol := 6 * math.Sqrt2 * math.Sqrt(q*(1-q)/float64(c.Resamples)) / dens
		for _, f := range []struct {
			what string
			got  float64
			want Number
		}{{"low", ci.Low, c.Low}, {"high", ci.High, c.High}} {
			dev := math.Abs(f.got - float64(f.want))
			deviation.Lock()
			deviation.max["bootstrap (Monte Carlo)"] = math.Max(deviation.max["bootstrap (Monte Carlo)"], dev)
			deviation.Unlock()
			if dev > tol {
				t.Errorf("%s %s: %.6g, SciPy %.6g: |Δ| %.3g > %.3g", c.Name, f.what, f.got, float64(f.want), dev, tol)
			}
		}
		if rel := math.Abs(ci.SE/sd - 1); rel > 6*math.Sqrt(1/(2*float64(c.Resamples)))*math.Sqrt2 {
			t.Errorf("%s se: %.6g, SciPy %.6g", c.Name, ci.SE, sd)
		}
	}
}

// TestVectorsSummary prints the largest deviation per group (go test -v
// -run Vectors ./stats).
func TestVectorsSummary(t *testing.T) {
	deviation.Lock()
	defer deviation.Unlock()
	var keys []string
	for k := range deviation.max {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("max |Δ| against the reference, %s: %.3g", k, deviation.max[k])
	}
}
