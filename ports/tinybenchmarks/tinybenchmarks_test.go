package tinybenchmarks

import (
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

func TestAggregationsUnavailable(t *testing.T) {
	for name := range aggSHA {
		fn, ok := task.LookupHook("tinyBenchmarks", "agg_functions."+name)
		if !ok || fn.Kind != task.HookUnavailable || fn.Unavailable != Reason {
			t.Errorf("%s: %v %v", name, ok, fn)
		}
	}
}
