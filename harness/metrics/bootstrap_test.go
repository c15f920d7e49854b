package metrics

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/lmeval/lmeval/python/pyrand"
)

// TestBootstrapMatchesLMEval compares bootstrap standard errors with
// lm-eval's stderr_for_metric on the same values
// (testdata/bootstrap_vectors.json, made by testdata/gen_bootstrap.py with
// lm-eval's own bootstrap_stderr, sklearn's f1 and MCC, numpy's nanmean).
// lm-eval's draws are deterministic (chunk i uses random.Random(i)), so
// the values must agree to rounding, not to bootstrap noise.
func TestBootstrapMatchesLMEval(t *testing.T) {
	raw, err := os.ReadFile("testdata/bootstrap_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name, Aggregation string
			Iters             int
			Items             []json.RawMessage
			Want              float64
		}
		Pooled []struct {
			Stderrs []float64
			Sizes   []int
			Want    float64
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 || len(file.Pooled) == 0 {
		t.Fatal("no cases")
	}
	for _, p := range file.Pooled {
		if got := PooledStderr(p.Stderrs, p.Sizes); math.Abs(got-p.Want) > 1e-14*p.Want {
			t.Errorf("PooledStderr(%v, %v) = %.17g, lm-eval %.17g", p.Stderrs, p.Sizes, got, p.Want)
		}
	}
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			items := make([]any, len(tc.Items))
			for i, r := range tc.Items {
				var pair [2]int
				var x float64
				switch {
				case string(r) == "null":
					items[i] = math.NaN()
				case json.Unmarshal(r, &pair) == nil:
					items[i] = Pair{pair[0], pair[1]}
				case json.Unmarshal(r, &x) == nil:
					items[i] = x
				default:
					t.Fatalf("item %d: %s", i, r)
				}
			}
			for _, workers := range []int{1, 3} {
				se, err := StderrFor(context.Background(), tc.Aggregation, tc.Aggregation, items, Bootstrap{Iters: tc.Iters, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if !se.OK || math.Abs(se.Value-tc.Want) > 1e-12*math.Abs(tc.Want) {
					t.Errorf("workers %d: stderr %.17g, lm-eval %.17g (relative difference %.2g)",
						workers, se.Value, tc.Want, math.Abs(se.Value-tc.Want)/math.Abs(tc.Want))
				}
			}
		})
	}
}

// TestChoices: random.Random(0).choices(range(10), k=8) and
// random.Random(5).choices(range(3), k=6) in CPython.
func TestChoices(t *testing.T) {
	for _, tc := range []struct {
		seed int64
		n    int
		want []int
	}{
		{0, 10, []int{8, 7, 4, 2, 5, 4, 7, 3}},
		{5, 3, []int{1, 2, 2, 2, 2, 2}},
	} {
		got := make([]int, len(tc.want))
		Choices(pyrand.New(tc.seed), got, tc.n)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("seed %d, n %d: %v, want %v", tc.seed, tc.n, got, tc.want)
				break
			}
		}
	}
}
