package arab_culture_completion_test

import (
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/arab_culture"
	"github.com/lmeval/lmeval/ports/arab_culture_completion"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers, imported under each setting
// of the environment (ports/arab_culture/testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.RunWith(t, "testdata/vectors.json", func(v vectest.Vector) *task.Hook {
		s := arab_culture.SettingsFrom(func(k string) (string, bool) { x, ok := v.Env[k]; return x, ok })
		if v.Function == "doc_to_text" {
			return &task.Hook{Kind: task.HookDocFunc, DocFunc: func(d task.Doc) (any, error) { return arab_culture_completion.DocToText(s, d) }}
		}
		return nil // doc_to_choice and doc_to_target read no setting
	}, "arab_culture_completion/utils_completion.py:doc_to_text", "arab_culture_completion/utils_completion.py:doc_to_choice",
		"arab_culture_completion/utils_completion.py:doc_to_target")
}
