package humaneval_infilling

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/ports/humaneval"
	"github.com/lmeval/lmeval/ports/internal/pysource"
)

type vectors struct {
	File             string            `json:"file"`
	Sources          map[string]string `json:"sources"`
	Docs             []map[string]any  `json:"docs"`
	Resps            [][]string        `json:"resps"`
	BuildPredictions [][]string        `json:"build_predictions"`
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestSources(t *testing.T) {
	v := load(t)
	pysource.VerifyRecordedAll(t, Sources, v.File, v.Sources)
	// pass_at_k is served by humaneval's port only because the Python
	// source is the same.
	for _, s := range humaneval.Sources {
		if s.Function == "pass_at_k" && s.SHA256 != v.Sources["pass_at_k"] {
			t.Errorf("humaneval's pass_at_k %s differs from humaneval_infilling's %s", s.SHA256, v.Sources["pass_at_k"])
		}
	}
}

func TestBuildPredictions(t *testing.T) {
	v := load(t)
	got, err := BuildPredictions(v.Resps, v.Docs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if len(got[i]) == 0 && len(v.BuildPredictions[i]) == 0 {
			continue
		}
		if !reflect.DeepEqual(got[i], v.BuildPredictions[i]) {
			t.Errorf("document %d: %q, want %q", i, got[i], v.BuildPredictions[i])
		}
	}
}
