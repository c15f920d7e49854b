package benchmarks

import (
	"testing"

	"github.com/lmeval/lmeval/harness/config"
)

// TestPresetsResolve checks that every task a built-in preset names is a
// built-in task, group or tag that loads.
func TestPresetsResolve(t *testing.T) {
	presets, err := config.Presets(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(presets) == 0 {
		t.Fatal("no built-in presets")
	}
	r := builtin(t)
	for _, p := range presets {
		list, ok := p.Values["tasks"].([]any)
		if !ok || len(list) == 0 {
			t.Errorf("preset %s names no tasks", p.Name)
			continue
		}
		for _, v := range list {
			s, _ := v.(string)
			spec, err := config.ParseTaskSpec(s)
			if err != nil {
				t.Errorf("preset %s: %v", p.Name, err)
				continue
			}
			if _, err := r.Load([]string{spec.Name}); err != nil {
				t.Errorf("preset %s: task %s: %v", p.Name, spec.Name, err)
			}
		}
	}
}
