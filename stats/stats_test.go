package stats

import (
	"encoding/json"
	"math"
	"testing"
)

func TestIsMean(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		vals  []float64
		score float64
		want  bool
	}{
		{[]float64{1, 0, 1, 1}, 0.75, true},
		{[]float64{1, 0, 1, 1}, 0.75 + 1e-12, true},
		{[]float64{1, 0, 1, 1}, 0.76, false},
		{[]float64{-3.2, -1.1}, 2.15, false}, // perplexity from log-likelihoods
		{[]float64{1, nan, 0}, 0.5, true},
		{[]float64{1, nan, 0}, nan, true},
		{[]float64{1, 0}, nan, false},
		{nil, 0, false},
	} {
		if got := IsMean(c.vals, c.score); got != c.want {
			t.Errorf("IsMean(%v, %v) = %v, want %v", c.vals, c.score, got, c.want)
		}
	}
}

// Result's JSON has snake_case keys, null for NaN, no replicates, and
// reads back.
func TestResultJSON(t *testing.T) {
	r := Compare([]float64{1, 0, 1, 1, 0}, []float64{1, 1, 1, 0, 0}, Options{Iters: 100, Clusters: []int{0, 0, 1, 1, 2}})
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "diff", "se", "ci_low", "ci_high", "bootstrap", "test", "p_value", "mcnemar", "cluster", "mde"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, data)
		}
	}
	if _, ok := m["Replicates"]; ok {
		t.Errorf("replicates written: %s", data)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.P != r.P || back.McNemar.B != 1 || back.McNemar.C != 1 || back.Boot.Low != r.Boot.Low || back.Cluster.Clusters != 3 || back.Diff != 0 {
		t.Errorf("round trip: %+v, want %+v", back, r)
	}
	one := Compare([]float64{0.5}, []float64{0.25}, Options{Iters: -1})
	data, err = json.Marshal(one)
	if err != nil {
		t.Fatalf("NaN statistics: %v", err)
	}
	json.Unmarshal(data, &back)
	if !math.IsNaN(back.SE) || !math.IsNaN(back.P) || back.Diff != -0.25 || back.Boot != nil {
		t.Errorf("one document: %s", data)
	}
}
