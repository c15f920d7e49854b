// Package portvectors replays vectors of lm-eval's document helpers (a
// JSON list of {file, function, doc, output | error}) through the ports
// registered for those files and functions.
package portvectors

import (
	"encoding/json"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Vector is one call of a Python helper on a document.
type Vector struct {
	File     string         `json:"file"`
	Function string         `json:"function"`
	Doc      map[string]any `json:"doc"`
	Output   any            `json:"output"`
	Error    string         `json:"error"`
}

// Replay checks every vector of file against the registered port: the
// same value (compared as Python values), or an error naming the same
// exception. It fails when there are fewer than min vectors.
func Replay(t *testing.T, file string, min int) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < min {
		t.Fatalf("%d vectors, want at least %d", len(vs), min)
	}
	for _, v := range vs {
		fn, ok := task.LookupFunction(path.Dir(v.File), "utils."+v.Function)
		if !ok {
			t.Errorf("%s:%s has no port", v.File, v.Function)
			continue
		}
		df, ok := fn.(task.DocFunc)
		if !ok {
			t.Errorf("%s:%s: registered %T", v.File, v.Function, fn)
			continue
		}
		got, err := df(pydoc.FromJSON(v.Doc).(map[string]any))
		if v.Error != "" {
			exc, _, _ := strings.Cut(v.Error, ":")
			if err == nil || !strings.Contains(err.Error(), exc) {
				t.Errorf("%s:%s(%v): %v, %v; want %s", v.File, v.Function, v.Doc, got, err, v.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s:%s(%v): %v", v.File, v.Function, v.Doc, err)
			continue
		}
		if !pyval.Equal(got, pydoc.FromJSON(v.Output)) && !reflect.DeepEqual(got, v.Output) {
			t.Errorf("%s:%s(%v) = %#v, want %#v", v.File, v.Function, v.Doc, got, v.Output)
		}
	}
}
