package metrics

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func anys[T any](xs ...T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func TestAggregations(t *testing.T) {
	ln2 := math.Ln2
	for _, tc := range []struct {
		agg   string
		items []any
		want  float64
	}{
		{"mean", anys(1.0, 0.0, 1.0, 1.0), 0.75},
		// lm-eval's median: sorted(arr)[len(arr)//2], the upper median.
		{"median", anys(5.0, 1.0, 9.0, 2.0), 5.0},
		{"median", anys(3.0, 1.0, 2.0), 2.0},
		{"median", anys(2.0, 2.0, 1.0, 2.0, 1.0), 2.0},
		{"nanmean", anys(1.0, math.NaN(), 0.0, 0.5), 0.5},
		{"perplexity", anys(-1.0, -3.0), math.Exp(2)},
		{"weighted_perplexity", anys(Weighted{-10, 4}, Weighted{-6, 4}), math.Exp(2)},
		{"bits_per_byte", anys(Weighted{-10, 4}, Weighted{-6, 4}), 2 / ln2},
		// gold/pred: TP=2 (1,1)x2, FP=1 (0,1), FN=1 (1,0), TN=1 -> 2*2/(4+1+1)
		{"f1", anys(Pair{1, 1}, Pair{1, 1}, Pair{0, 1}, Pair{1, 0}, Pair{0, 0}), 4.0 / 6.0},
		{"f1", anys(Pair{0, 0}, Pair{0, 0}), 0},
		// binary MCC = (TP*TN - FP*FN)/sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))
		// = (2*1 - 1*1)/sqrt(3*3*2*2) = 1/6
		{"matthews_corrcoef", anys(Pair{1, 1}, Pair{1, 1}, Pair{0, 1}, Pair{1, 0}, Pair{0, 0}), 1.0 / 6.0},
		{"matthews_corrcoef", anys(Pair{0, 0}, Pair{0, 0}), 0},
		// 3 classes, perfect -> 1
		{"matthews_corrcoef", anys(Pair{0, 0}, Pair{1, 1}, Pair{2, 2}), 1},
		// (0.3^2+0.3^2) + (0.2^2+0.2^2) over 2 docs
		{"brier_score", anys(Brier{0, []float64{0.7, 0.3}}, Brier{1, []float64{0.2, 0.8}}), (0.18 + 0.08) / 2},
	} {
		got, err := Aggregate(context.Background(), tc.agg, tc.items)
		if err != nil {
			t.Errorf("%s(%v): %v", tc.agg, tc.items, err)
			continue
		}
		if !near(got, tc.want, 1e-12) {
			t.Errorf("%s(%v) = %v, want %v", tc.agg, tc.items, got, tc.want)
		}
	}
	if _, err := Aggregate(context.Background(), "f1", anys(Pair{0, 2})); err == nil {
		t.Error("f1 with label 2: want an error (sklearn binary f1)")
	}
	if _, err := Aggregate(context.Background(), "mean", anys("x")); err == nil {
		t.Error("mean of text: want an error")
	}
}

func TestMCCMulticlass(t *testing.T) {
	// sklearn formula by hand: golds 0,0,1,2,2 preds 0,1,1,2,0.
	// C rows=true: [[1,1,0],[0,1,0],[1,0,1]]; t=[2,1,2] p=[2,2,1] correct=3 n=5
	// cov_tp = 3*5 - (4+2+2) = 7; cov_pp = 25-(4+4+1) = 16; cov_tt = 25-(4+1+4) = 16
	got, _ := Aggregate(context.Background(), "matthews_corrcoef", anys(Pair{0, 0}, Pair{0, 1}, Pair{1, 1}, Pair{2, 2}, Pair{2, 0}))
	if want := 7 / math.Sqrt(16*16); !near(got, want, 1e-12) {
		t.Errorf("mcc = %v, want %v", got, want)
	}
}

func TestAccAll(t *testing.T) {
	items := []AccAllItem{
		{Pred: true, Label: 1, Paragraph: 0, Question: 0},
		{Pred: false, Label: 0, Paragraph: 0, Question: 0}, // q0 all right
		{Pred: true, Label: 0, Paragraph: 0, Question: 1},  // q1 wrong
		{Pred: true, Label: 1, Paragraph: 1, Question: 0},  // (p1,q0) right
	}
	if got := AccAll(items); !near(got, 2.0/3.0, 1e-12) {
		t.Errorf("AccAll = %v, want 2/3", got)
	}
	// stderr groups by question only: q0 -> right (3 answers), q1 -> wrong
	if got, want := AccAllStderr(items), MeanStderr([]float64{1, 0}); !near(got, want, 1e-12) {
		t.Errorf("AccAllStderr = %v, want %v", got, want)
	}
}

func TestMeanStderrClosedForm(t *testing.T) {
	// mean .75; sample variance ((3 * .25^2) + .75^2)/3 = .25; se = .5/2
	se, err := StderrFor(context.Background(), "acc", "mean", anys(1.0, 0.0, 1.0, 1.0), Bootstrap{Iters: 1000})
	if err != nil || !se.OK || !near(se.Value, 0.25, 1e-15) {
		t.Errorf("stderr = %+v, %v; want 0.25", se, err)
	}
	for _, tc := range []struct {
		agg   string
		items []any
		iters int
	}{
		{"mean", anys(1.0), 1000},   // one value: N/A
		{"mean", anys(1.0, 0.0), 0}, // iters 0: off
		{"weighted_perplexity", anys(Weighted{-1, 1}, Weighted{-2, 1}), 1000}, // no stderr fn
		{"brier_score", anys(Brier{0, []float64{1, 0}}, Brier{0, []float64{1, 0}}), 1000},
	} {
		se, err := StderrFor(context.Background(), "m", tc.agg, tc.items, Bootstrap{Iters: tc.iters})
		if err != nil || se.OK {
			t.Errorf("%s with %d values, iters %d: stderr = %+v, %v; want N/A", tc.agg, len(tc.items), tc.iters, se, err)
		}
	}
}

func TestBootstrapDeterministicAndCorrect(t *testing.T) {
	xs := make([]any, 500)
	pop := make([]float64, 500)
	for i := range xs {
		v := float64((i*7919)%101) / 100
		xs[i], pop[i] = v, v
	}
	agg, _ := LookupAggregation("mean")
	ctx := context.Background()
	a, err := Bootstrap{Iters: 4000, Workers: 1}.Stderr(ctx, agg, xs)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Bootstrap{Iters: 4000, Workers: 7}.Stderr(ctx, agg, xs)
	old := runtime.GOMAXPROCS(1)
	c, _ := Bootstrap{Iters: 4000}.Stderr(ctx, agg, xs)
	runtime.GOMAXPROCS(old)
	if a != b || a != c {
		t.Errorf("bootstrap not deterministic across workers: %v %v %v", a, b, c)
	}
	// The bootstrap stderr of a mean estimates the population sd / sqrt(n).
	mu := Mean(pop)
	v := 0.0
	for _, x := range pop {
		v += (x - mu) * (x - mu)
	}
	want := math.Sqrt(v/float64(len(pop))) / math.Sqrt(float64(len(pop)))
	if !near(a, want, 0.05*want) {
		t.Errorf("bootstrap stderr %v, want about %v", a, want)
	}
}

func TestStderrForBootstraps(t *testing.T) {
	pairs := anys(Pair{1, 1}, Pair{0, 1}, Pair{1, 0}, Pair{0, 0}, Pair{1, 1}, Pair{0, 0})
	for _, agg := range []string{"f1", "matthews_corrcoef"} {
		se, err := StderrFor(context.Background(), agg, agg, pairs, Bootstrap{Iters: 2000})
		if err != nil || !se.OK || se.Value <= 0 || se.Value > 1 {
			t.Errorf("%s bootstrap stderr = %+v, %v", agg, se, err)
		}
	}
	se, err := StderrFor(context.Background(), "perplexity", "perplexity", anys(-1.0, -2.0, -3.0), Bootstrap{Iters: 2000})
	if err != nil || !se.OK || se.Value <= 0 {
		t.Errorf("perplexity bootstrap stderr = %+v, %v", se, err)
	}
	// iters not a multiple of the chunk: lm-eval runs whole chunks only;
	// fewer iterations than one chunk use one chunk of that size.
	if _, err := StderrFor(context.Background(), "x", "median", anys(1.0, 2.0, 3.0), Bootstrap{Iters: 10}); err != nil {
		t.Error(err)
	}
}

// Three subtasks worked by hand.
func TestGroupPooling(t *testing.T) {
	subs := []Subtask{
		{Value: 0.5, Stderr: StderrResult{0.1, true}, Size: 10},
		{Value: 0.6, Stderr: StderrResult{0.05, true}, Size: 20},
		{Value: 0.7, Stderr: StderrResult{0.02, true}, Size: 30},
	}
	v, se, n := Group(subs, true)
	// (0.5*10 + 0.6*20 + 0.7*30)/60 = 38/60
	if !near(v, 38.0/60.0, 1e-12) || n != 60 {
		t.Errorf("micro = %v (n %d), want %v", v, n, 38.0/60.0)
	}
	// (9*0.01*10 + 19*0.0025*20 + 29*0.0004*30) = 0.9 + 0.95 + 0.348 = 2.198
	if want := math.Sqrt(2.198 / 57 / 60); !se.OK || !near(se.Value, want, 1e-12) {
		t.Errorf("pooled stderr = %+v, want %v", se, want)
	}
	v, _, _ = Group(subs, false)
	if !near(v, 0.6, 1e-12) {
		t.Errorf("macro = %v, want 0.6", v)
	}
	subs[1].Stderr = StderrResult{}
	if _, se, _ := Group(subs, true); se.OK {
		t.Error("a subtask without stderr must make the group's N/A")
	}
}

// Defaults and NewSpec resolve names against the registry (the YAML's
// metric_list is parsed in harness/task: TestMetricSpecs).
func TestNewSpec(t *testing.T) {
	specs, err := Defaults(model.OutputMultipleChoice)
	if err != nil || len(specs) != 2 || specs[0].Name != "acc" || specs[1].Name != "acc_norm" {
		t.Fatalf("defaults = %+v, %v", specs, err)
	}
	if s := NewSpec("ter", false); s.Aggregation != "ter" || !s.HigherIsBetter || !s.Registered {
		t.Errorf("ter spec = %+v (lm-eval registers higher_is_better=True)", s)
	}
	if s := NewSpec("my_custom", false); s.Registered || s.Aggregation != "" || !s.HigherIsBetter {
		t.Errorf("custom metric spec = %+v", s)
	}
	if s, err := NewSpec("my_custom", false).WithAggregation("median"); err != nil || s.Aggregation != "median" {
		t.Errorf("WithAggregation(median) = %+v, %v", s, err)
	}
	if _, err := NewSpec("acc", false).WithAggregation("nonesuch"); err == nil || !strings.Contains(err.Error(), `unknown aggregation "nonesuch"`) {
		t.Errorf("WithAggregation(nonesuch): %v", err)
	}
	if m, ok := Lookup("recall_at_3"); !ok || m.Aggregation != "mean" {
		t.Errorf("recall_at_3 = %+v, %v", m, ok)
	}
}

// Argmax is np.argmax: the first largest value, a NaN winning at its first
// occurrence (np.argmax([1, nan, 3]) is 1), 0 for none.
func TestArgmax(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want int
	}{
		{[]float64{-3, -1, -2}, 1},
		{[]float64{-1, -1, -2}, 0},
		{[]float64{1, math.NaN(), 3, math.NaN()}, 1},
		{[]float64{math.Inf(-1), math.Inf(-1)}, 0},
		{nil, 0},
	} {
		if got := Argmax(c.xs); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
