package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/nprand"
	"github.com/lmeval/lmeval/python/pyrand"
)

// Ports that use what lm-eval keeps per Python process: a process_docs
// drawing from the module generator (random.shuffle's kind), a metric
// function that needs the consent to run the model's code, and an
// aggregation drawing from numpy's global generator.
func init() {
	task.RegisterMapDocs(task.Helper{File: "isolation/utils.py", Function: "draw"}, task.MapDocs{GlobalRandom: true, Columns: []string{"draw"},
		FnModule: func(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error) {
			out := make([]task.Doc, len(docs))
			m.With(func(r *pyrand.Rand) {
				for i, d := range docs {
					out[i] = task.Doc{"q": d["q"], "a": d["a"], "draw": r.Randbelow(1000)}
				}
			})
			return out, nil
		}})
	task.RegisterMetric(task.Helper{File: "isolation/utils.py", Function: "consent"},
		func(ctx context.Context, _, _ []any, _ map[string]any) (any, error) {
			if _, ok := codeexec.ConsentOf(ctx); !ok {
				return nil, errors.New("no consent to run the model's code")
			}
			return 1.0, nil
		})
	npDraw := &metrics.Aggregation{Name: "isolation:np_draw", FnNumPy: func(_ []any, np *nprand.RandomState) (float64, error) {
		return float64(np.Intn(1 << 30)), nil
	}}
	metrics.RegisterAggregation(npDraw)
	task.RegisterAggregation(task.Helper{File: "isolation/utils.py", Function: "np_draw"}, npDraw)
}

// TestPlansDoNotInterfere: two evaluations in one process, their stages
// interleaved, each get what lm-eval's own process would give them alone:
// their own random.seed's draws, their own np.random.seed's, and their
// own consent (or none) to run the model's code.
func TestPlansDoNotInterfere(t *testing.T) {
	yaml := func(task, metric string) string {
		return "task: " + task + "\ndataset_path: iso\ntest_split: test\noutput_type: generate_until\n" +
			"process_docs: !function utils.draw\ndoc_to_text: \"{{q}} {{draw}}\"\ndoc_to_target: a\n" +
			"metric_list:\n  - metric: " + metric + "\n    aggregation: !function utils.np_draw\n"
	}
	fsys := fstest.MapFS{
		"isolation/unsafe.yaml": {Data: []byte(yaml("iso_unsafe", "!function utils.consent"))},
		"isolation/plain.yaml":  {Data: []byte(yaml("iso_plain", "exact_match"))},
	}
	loader := WithLoader(func(context.Context, task.DatasetSpec, string) ([]task.Doc, error) {
		return []task.Doc{{"q": "a", "a": "x"}, {"q": "b", "a": "y"}, {"q": "c", "a": "z"}}, nil
	})
	plan := func(name, seed string, confirm bool) *Plan {
		t.Helper()
		r := task.NewRegistry()
		if err := r.AddFS("", fsys); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
			"model": "dummy", "tasks": []string{name}, "seed": seed, "confirm_run_unsafe_code": confirm,
		}})
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewPlan(cfg, WithRegistry(r), loader, WithWriteOut(&strings.Builder{}))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	lm, err := dummy.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// What each run draws on its own: three documents' random.randrange
	// after random.seed(seed), numpy's first draw after np.random.seed.
	want := func(random int64, numpy uint32) (draws []string, agg float64) {
		r := pyrand.New(random)
		for range 3 {
			draws = append(draws, fmt.Sprint(r.Randbelow(1000)))
		}
		return draws, float64(nprand.New(numpy).Intn(1 << 30))
	}
	check := func(b *Workload, s *Scorer, name string, random int64, numpy uint32) {
		t.Helper()
		draws, agg := want(random, numpy)
		var got []string
		for _, d := range b.Tasks()[0].Docs {
			got = append(got, fmt.Sprint(d.Doc["draw"]))
		}
		if strings.Join(got, " ") != strings.Join(draws, " ") {
			t.Errorf("%s: documents drew %v, want %v (random.seed(%d) alone)", name, got, draws, random)
		}
		res, err := s.Report(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, _ := res.Results.Get(name)
		metric := "exact_match,none"
		if name == "iso_unsafe" {
			metric = "consent,none"
		}
		if v, ok := e.Get(metric); !ok || fmt.Sprint(v) != fmt.Sprint(agg) {
			t.Errorf("%s: %s = %v, want %v (np.random.seed(%d) alone)", name, metric, v, agg, numpy)
		}
	}

	// A is planned and built, then B (no consent, other seeds) is planned
	// and runs to its end while A waits; then A runs and reports.
	a := plan("iso_unsafe", "1,11,0,0", true)
	ba, err := a.Build(ctx, lm)
	if err != nil {
		t.Fatal(err)
	}
	b := plan("iso_plain", "2,22,0,0", false)
	bb, err := b.Build(ctx, lm)
	if err != nil {
		t.Fatal(err)
	}
	sa, err := ba.Score()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := bb.Score()
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.Run(ctx, lm, sb); err != nil {
		t.Fatal(err)
	}
	check(bb, sb, "iso_plain", 2, 22)
	if err := ba.Run(ctx, lm, sa); err != nil {
		t.Fatalf("A after B: %v", err)
	}
	check(ba, sa, "iso_unsafe", 1, 11)

	// Without the consent the function metric cannot run the code.
	c := plan("iso_unsafe", "1,11,0,0", false)
	if _, err := c.Evaluate(ctx, lm); err == nil || !strings.Contains(err.Error(), "no consent") {
		t.Errorf("unconfirmed run: %v, want the metric refused", err)
	}
}
