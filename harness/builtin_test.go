package harness

import (
	"context"
	"fmt"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
)

// builtinTasks are the built-in tasks with fixture documents.
var builtinTasks = []string{
	"arc_easy", "arc_challenge", "hellaswag", "lambada_openai", "lambada_standard", "wikitext",
	"winogrande", "boolq", "openbookqa", "piqa", "sciq", "truthfulqa_mc1", "truthfulqa_mc2",
	"truthfulqa_gen", "gsm8k", "gsm8k_cot", "mmlu_abstract_algebra", "mmlu_anatomy",
}

// fixtureLoader serves benchmarks/testdata as the dataset loader would, numbers
// typed as it types them.
func fixtureLoader(_ context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
	file, ok := fixtures.File(spec.Path, spec.Name, split)
	if !ok {
		return nil, fmt.Errorf("no fixture for dataset %s/%s", spec.Path, spec.Name)
	}
	return fixtures.Read(file) // task.Doc is map[string]any
}

// TestBuiltinTasksDummy runs every built-in task that has fixture documents
// through the whole pipeline with the dummy model: each reports the metrics
// its metric_list names, under each of its filters, over every document.
func TestBuiltinTasksDummy(t *testing.T) {
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, builtinTasks...)
	samples := newMemSamples()
	res, err := evaluate(context.Background(), cfg, lm, WithBuiltinTasks(benchmarks.FS()), WithLoader(fixtureLoader), WithSamples(samples.open))
	if err != nil {
		t.Fatal(err)
	}
	reg := testRegistry(t)
	for _, name := range builtinTasks {
		sel, err := reg.Load([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		c := sel.Tasks()[0].Config
		e, ok := res.Results.Get(name)
		if !ok {
			t.Errorf("%s: no results", name)
			continue
		}
		filterNames := []string{"none"}
		if len(c.Filters) > 0 {
			filterNames = nil
			for _, f := range c.Filters {
				filterNames = append(filterNames, f.Name)
			}
		}
		specs := c.Metrics
		if len(specs) == 0 {
			if specs, err = metrics.Defaults(c.OutputType); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range filterNames {
			for _, s := range specs {
				if _, ok := e.Get(s.Name + "," + f); !ok && c.ProcessResults == nil {
					t.Errorf("%s: no %s,%s (has %v)", name, s.Name, f, e.Keys())
				}
			}
		}
		ns, _ := res.NSamples.Get(name)
		if ns.Effective == 0 || ns.Effective != ns.Original {
			t.Errorf("%s: n-samples %+v", name, ns)
		}
		if got, want := len(samples.byTask[name]), ns.Effective*len(filterNames); got != want {
			t.Errorf("%s: %d samples, want %d", name, got, want)
		}
	}
	data, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, data)
	if testing.Verbose() {
		t.Logf("\n%s", res.Tables())
	}
	_ = results.NA
}
