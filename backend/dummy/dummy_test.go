package dummy

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
)

func TestDummy(t *testing.T) {
	ctx := context.Background()
	lm, err := model.New(ctx, "dummy", model.Args{"seed": "7", "pretrained": "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	var reqs []model.LoglikelihoodRequest
	for i := range 400 {
		reqs = append(reqs, model.LoglikelihoodRequest{Context: fmt.Sprintf("Q%d", i), Continuation: " yes"})
	}
	a, err := lm.Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	// Same requests in reverse order, one at a time: same answers.
	for i := len(reqs) - 1; i >= 0; i-- {
		b, err := lm.Loglikelihood(ctx, reqs[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if b[0] != a[i] {
			t.Fatalf("request %d answered %+v alone, %+v in a batch", i, b[0], a[i])
		}
	}
	// -U(0,1) and a fair coin: check the range and rough moments.
	var sum float64
	greedy := 0
	for _, r := range a {
		if r.LogProb > 0 || r.LogProb <= -1 {
			t.Fatalf("log-prob %v outside (-1, 0]", r.LogProb)
		}
		sum += r.LogProb
		if r.IsGreedy {
			greedy++
		}
	}
	if mean := sum / float64(len(a)); math.Abs(mean+0.5) > 0.05 { // sd of the mean ~0.014
		t.Errorf("mean log-prob %v, want about -0.5", mean)
	}
	if greedy < 160 || greedy > 240 { // 200 ± 4 sd
		t.Errorf("%d of 400 greedy, want about 200", greedy)
	}

	other, _ := model.New(ctx, "dummy", model.Args{"seed": "8"})
	c, _ := other.Loglikelihood(ctx, reqs[:10])
	same := 0
	for i := range c {
		if c[i] == a[i] {
			same++
		}
	}
	if same == 10 {
		t.Error("seed does not change the answers")
	}

	gen, err := lm.GenerateUntil(ctx, []model.GenerateRequest{{Context: "Hi", Until: []string{"\n"}}})
	if err != nil || len(gen) != 1 || gen[0] != "lol" {
		t.Errorf("GenerateUntil = %q, %v", gen, err)
	}
	// A template that renders empty for one document must not end the run.
	for _, c := range []string{"", "  "} {
		if gen, err := lm.GenerateUntil(ctx, []model.GenerateRequest{{Context: "Hi"}, {Context: c}}); err != nil || len(gen) != 2 || gen[1] != "lol" {
			t.Errorf("GenerateUntil with context %q = %q, %v", c, gen, err)
		}
	}
	if ll, err := lm.Loglikelihood(ctx, []model.LoglikelihoodRequest{{Context: "", Continuation: " yes"}}); err != nil || ll[0].LogProb > 0 {
		t.Errorf("Loglikelihood with an empty context = %+v, %v", ll, err)
	}
	roll, err := lm.LoglikelihoodRolling(ctx, []model.RollingRequest{{Text: "a b c"}})
	if err != nil || roll[0].LogProb > 0 || roll[0].LogProb <= -1 || roll[0].NumTokens != 3 {
		t.Errorf("LoglikelihoodRolling = %+v, %v", roll, err)
	}
	if _, err := model.New(ctx, "dummy", model.Args{"seed": "x"}); err == nil {
		t.Error("bad seed accepted")
	}
}

// The dummy's facts: its seed, in the results' model section, no cache
// identity.
func TestDummyFacts(t *testing.T) {
	d, _ := New(nil)
	s := d.Describe().Sections()
	if !reflect.DeepEqual(s[model.SectionModel], map[string]any{"backend": "dummy", "seed": uint64(1234)}) || len(s[model.SectionEngine]) != 0 || len(s[model.SectionExtra]) != 0 {
		t.Errorf("dummy sections %v", s)
	}
	if len(d.Describe().CacheIdentity()) != 0 {
		t.Errorf("dummy CacheIdentity() = %v", d.Describe().CacheIdentity())
	}
}
