package benchmarks

import (
	"context"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func metricKnown(name string) bool { _, ok := metrics.Lookup(name); return ok }
func filterKnown(name string) bool { _, ok := filters.Lookup(name); return ok }

// TestValidate runs `lmeval validate`'s checks on every built-in task and
// group (YAML, functions, templates, metrics, filters), and builds the
// first documents of each task that has fixture data.
func TestValidate(t *testing.T) {
	r := builtin(t)
	probs := task.Validate(context.Background(), r, r.All(), task.ValidateOptions{
		MetricKnown: metricKnown, FilterKnown: filterKnown,
	})
	for _, p := range probs {
		t.Error(p)
	}

	var withData []string
	for _, name := range r.Tasks() {
		if !strings.HasPrefix(name, "mmlu_") || name == "mmlu_abstract_algebra" || name == "mmlu_anatomy" {
			withData = append(withData, name)
		}
	}
	probs = task.Validate(context.Background(), builtin(t), withData, task.ValidateOptions{
		Loader: fixtureLoader, MetricKnown: metricKnown, FilterKnown: filterKnown,
	})
	for _, p := range probs {
		t.Error(p)
	}
	if len(withData) != 20 {
		t.Errorf("validated %d tasks on fixture documents, want 20", len(withData))
	}
}
