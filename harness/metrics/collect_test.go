package metrics

import (
	"context"
	"github.com/lmeval/lmeval/harness/model"
	"math"
	"reflect"
	"testing"
)

func TestCollectorOrderAndCompute(t *testing.T) {
	sp := specs(t, model.OutputMultipleChoice, "acc_norm", "mrr", "acc", "brier_score")
	order := Order(model.OutputMultipleChoice, sp)
	if want := []string{"acc", "acc_norm", "brier_score", "mrr"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("Order = %v, want %v", order, want)
	}
	c := NewCollector()
	docs := []MultipleChoiceResult{
		{LogLiks: []float64{-1, -2}, Choices: []string{"a", "b"}, Gold: []int{0}, IsGreedy: []bool{true, false}},
		{LogLiks: []float64{-1, -2}, Choices: []string{"a", "b"}, Gold: []int{1}, IsGreedy: []bool{true, false}},
		{LogLiks: []float64{-3, -2}, Choices: []string{"a", "b"}, Gold: []int{1}, IsGreedy: []bool{false, true}},
	}
	for _, d := range docs {
		v, err := ScoreMultipleChoice(sp, d)
		if err != nil {
			t.Fatal(err)
		}
		c.Add("none", order, v)
		c.Add("other", order, map[string]any{"custom_score": 2.0})
	}
	var keys []Key
	for _, k := range c.Keys() {
		keys = append(keys, k)
	}
	want := []Key{{"acc", "none"}, {"acc_norm", "none"}, {"brier_score", "none"}, {"mrr", "none"}, {"custom_score", "other"}}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys = %v, want %v", keys, want)
	}
	res, err := c.Compute(context.Background(), sp, Bootstrap{Iters: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// acc: 1, 0, 1 -> 2/3, stderr sqrt(1/3)/sqrt(3) = 1/3
	if r := res[0]; !near(r.Value, 2.0/3, 1e-12) || !near(r.Stderr.Value, 1.0/3, 1e-12) || r.N != 3 {
		t.Errorf("acc = %+v", r)
	}
	// mrr: 1, 1/2, 1 -> 5/6
	if r := res[3]; !near(r.Value, 5.0/6, 1e-12) {
		t.Errorf("mrr = %+v", r)
	}
	// brier: no stderr; custom metric without spec: mean
	if r := res[2]; r.Stderr.OK || r.HigherIsBetter {
		t.Errorf("brier = %+v", r)
	}
	if r := res[4]; r.Value != 2 || r.Aggregation != "mean" || !r.Stderr.OK || r.Stderr.Value != 0 {
		t.Errorf("custom = %+v", r)
	}
	e0, e1 := math.Exp(0.0), math.Exp(-1.0)
	p := e0 / (e0 + e1)
	// doc 1: gold 0 has p: 2(1-p)^2; doc 2: gold 1 has 1-p: 2p^2;
	// doc 3: lls reversed, gold 1 has p: 2(1-p)^2
	wantBrier := (4*(1-p)*(1-p) + 2*p*p) / 3
	if r := res[2]; !near(r.Value, wantBrier, 1e-12) {
		t.Errorf("brier = %v, want %v", r.Value, wantBrier)
	}
}
