package harness

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// fixedNow makes the results' date and duration reproducible.
func fixedNow(o *options) { o.now = func() time.Time { return time.Unix(1700000000, 0) } }

func marshalResults(t *testing.T, res *results.Results) string {
	t.Helper()
	res.LMEval.TokensPerSec = 0
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStagesCompose: the stages used one by one, with the answers handed
// to the Scorer by the caller instead of Run, give Evaluate's results and
// samples; the plan fails fast, naming the --tasks entry.
func TestStagesCompose(t *testing.T) {
	lm, err := dummy.New(model.Args{"seed": "7"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	names := []string{"toy_group", "toy_gen", "toy_ppl"}
	reg := testRegistry(t)
	want := newMemSamples()
	res, err := evaluate(ctx, testConfig(t, names...), lm, WithRegistry(reg), WithSamples(want.open),
		WithWriteOut(&strings.Builder{}), fixedNow)
	if err != nil {
		t.Fatal(err)
	}

	got := newMemSamples()
	p, err := NewPlan(testConfig(t, names...), WithRegistry(reg), fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if tasks := p.Tasks(); len(tasks) < 3 || tasks[len(tasks)-1] != "toy_ppl" {
		t.Errorf("plan tasks %q", tasks)
	}
	b, err := p.Build(ctx, nil, WithSamples(got.open), WithWriteOut(&strings.Builder{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Build(ctx, nil); err == nil {
		t.Error("a plan built twice")
	}
	if len(b.Tasks()) != len(p.Tasks()) || len(b.Configs()) != len(p.Tasks()) {
		t.Errorf("%d built tasks, %d configs, for %d planned", len(b.Tasks()), len(b.Configs()), len(p.Tasks()))
	}
	sc, err := b.Score()
	if err != nil {
		t.Fatal(err)
	}
	// The caller answers: the dummy model's answers, one request at a time
	// and in reverse order.
	r := b.Requests()
	if len(r.Loglikelihood) == 0 || len(r.Rolling) == 0 || len(r.Generate) == 0 {
		t.Fatalf("requests %d/%d/%d, want some of each type", len(r.Loglikelihood), len(r.Rolling), len(r.Generate))
	}
	for i := len(r.Loglikelihood) - 1; i >= 0; i-- {
		a, err := lm.Loglikelihood(ctx, r.Loglikelihood[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Loglikelihood(ctx, i, a[0]); err != nil {
			t.Fatal(err)
		}
	}
	rolls, err := lm.LoglikelihoodRolling(ctx, r.Rolling)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range rolls {
		if err := sc.Rolling(ctx, i, a); err != nil {
			t.Fatal(err)
		}
	}
	// Before every document is answered, the report refuses.
	gens, err := lm.GenerateUntil(ctx, r.Generate)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Generated(ctx, len(gens), "x"); err == nil {
		t.Error("an answer to a request that does not exist was taken")
	}
	for i, a := range gens {
		if err := sc.Generated(ctx, i, a); err != nil {
			t.Fatal(err)
		}
	}
	res2, err := sc.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Evaluate's lmeval block describes its model; the stages were given
	// none.
	res.LMEval.Model, res.LMEval.Engine, res.LMEval.Extra = nil, nil, nil
	if a, b := marshalResults(t, res), marshalResults(t, res2); a != b {
		t.Errorf("stages' results differ from Evaluate's:\n%s\n%s", a, b)
	}
	for name, ss := range want.byTask {
		a, _ := json.Marshal(ss)
		// Samples are written as documents complete: order them as the
		// answers came, by document.
		bs, _ := json.Marshal(got.byTask[name])
		if len(got.byTask[name]) != len(ss) || !got.closed[name] {
			t.Errorf("task %s: %d samples (closed %v), want %d", name, len(got.byTask[name]), got.closed[name], len(ss))
		} else if name != "toy_mc" && name != "toy_mc_b" && string(a) != string(bs) {
			t.Errorf("task %s: samples differ", name)
		}
	}

	// Unanswered documents are an error, naming the task and document.
	p, err = NewPlan(testConfig(t, "toy_ppl"), WithRegistry(reg))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = p.Build(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if sc, err = b.Score(); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Report(ctx); err == nil || !strings.Contains(err.Error(), "task toy_ppl: document") {
		t.Errorf("report of an unanswered build: %v", err)
	}

	// The plan stage fails fast, before any model or document.
	_, err = NewPlan(testConfig(t, "toy_gen", "no_such_task_here"), WithRegistry(reg))
	if err == nil || !strings.Contains(err.Error(), "--tasks no_such_task_here") {
		t.Errorf("plan of an unknown task: %v", err)
	}
}

// TestRunAnswersScorer: Run hands every answer to the Answers it is given,
// by position in Requests.
func TestRunAnswersScorer(t *testing.T) {
	lm, err := dummy.New(model.Args{"seed": "3"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := NewPlan(testConfig(t, "toy_group", "toy_gen", "toy_ppl"), WithRegistry(testRegistry(t)), WithChunkSize(3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Build(ctx, lm)
	if err != nil {
		t.Fatal(err)
	}
	r := b.Requests()
	c := &countAnswers{seen: map[string]map[int]bool{}}
	if err := b.Run(ctx, lm, c); err != nil {
		t.Fatal(err)
	}
	for kind, n := range map[string]int{"ll": len(r.Loglikelihood), "roll": len(r.Rolling), "gen": len(r.Generate)} {
		if len(c.seen[kind]) != n {
			t.Errorf("%s: %d answers for %d requests", kind, len(c.seen[kind]), n)
		}
	}
}

type countAnswers struct{ seen map[string]map[int]bool }

func (c *countAnswers) put(kind string, i int) error {
	if c.seen[kind] == nil {
		c.seen[kind] = map[int]bool{}
	}
	c.seen[kind][i] = true
	return nil
}

func (c *countAnswers) Loglikelihood(_ context.Context, i int, _ model.LoglikelihoodResult) error {
	return c.put("ll", i)
}
func (c *countAnswers) Rolling(_ context.Context, i int, _ model.RollingResult) error {
	return c.put("roll", i)
}
func (c *countAnswers) Generated(_ context.Context, i int, _ string) error { return c.put("gen", i) }
