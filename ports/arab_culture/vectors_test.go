package arab_culture_test

import (
	"os"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/arab_culture"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers, imported under each setting
// of the environment (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	vectest.RunWith(t, "testdata/vectors.json", func(v vectest.Vector) *task.Hook {
		s := arab_culture.SettingsFrom(func(k string) (string, bool) { x, ok := v.Env[k]; return x, ok })
		doc := func(fn task.DocFunc) *task.Hook { return &task.Hook{Kind: task.HookDocFunc, DocFunc: fn} }
		switch v.Function {
		case "doc_to_text":
			return doc(func(d task.Doc) (any, error) { return s.DocToText(d) })
		case "doc_to_choice":
			return doc(s.DocToChoice)
		case "doc_to_target":
			return doc(s.DocToTarget)
		}
		return nil
	}, "arab_culture/utils_mcq.py:doc_to_text", "arab_culture/utils_mcq.py:doc_to_choice", "arab_culture/utils_mcq.py:doc_to_target")
}

// TestEnv: the settings are those of the environment variables, true
// only when set to "True".
func TestEnv(t *testing.T) {
	t.Setenv("COUNTRY", "True")
	t.Setenv("REGION", "true")
	t.Setenv("MODEL_NAME", "jais-chat")
	got := arab_culture.SettingsFrom(os.LookupEnv)
	if want := (arab_culture.Settings{Country: true, ModelName: "jais-chat"}); got != want {
		t.Errorf("settings %+v, want %+v", got, want)
	}
}
