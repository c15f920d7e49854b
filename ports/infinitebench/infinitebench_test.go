package infinitebench

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

type vector struct {
	Function string         `json:"function"`
	Doc      map[string]any `json:"doc"`
	Results  []any          `json:"results"`
	Output   any            `json:"output"`
	Error    string         `json:"error"`
}

func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 90 {
		t.Fatalf("%d vectors", len(vs))
	}
	for i, v := range vs {
		fn, ok := task.LookupHook("infinitebench", "utils."+v.Function)
		if !ok {
			t.Errorf("%s has no port", v.Function)
			continue
		}
		doc := pydoc.FromJSON(v.Doc).(map[string]any)
		var got any
		switch {
		case fn.DocFunc != nil:
			got, err = fn.DocFunc(doc)
		case fn.ProcessResults != nil:
			var m map[string]any
			m, err = fn.ProcessResults(doc, v.Results)
			if err == nil {
				got = map[string]any{"score": m["score"]}
			}
		default:
			t.Fatalf("%s: %T", v.Function, fn)
		}
		if v.Error != "" {
			exc, _, _ := strings.Cut(v.Error, ":")
			if err == nil || !strings.Contains(err.Error(), exc) {
				t.Errorf("%d %s(%v, %q) = %v, %v; want %s", i, v.Function, v.Doc, v.Results, got, err, v.Error)
			}
			continue
		}
		if err != nil || !pyval.Equal(got, pydoc.FromJSON(v.Output)) {
			t.Errorf("%d %s(%v, %q) = %#v, %v; want %#v", i, v.Function, v.Doc, v.Results, got, err, v.Output)
		}
	}
}
