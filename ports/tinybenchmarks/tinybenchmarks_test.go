package tinybenchmarks

import (
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

func TestAggregationsUnavailable(t *testing.T) {
	for name := range aggSHA {
		fn, ok := task.LookupFunction("tinyBenchmarks", "agg_functions."+name)
		if u, isU := fn.(task.Unavailable); !ok || !isU || u.Reason != Reason {
			t.Errorf("%s: %v %T", name, ok, fn)
		}
	}
}
