package task

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"lmeval/harness/pyval"
)

// A task naming a helper registered as Unavailable is unavailable with
// the helper's reason (after any functions with no port at all).
func TestUnavailableHelper(t *testing.T) {
	RegisterFunction("unavail", "utils.bertscore", Unavailable{Reason: "it needs a neural model"})
	RegisterFunction("unavail", "utils.ok", DocFunc(func(Doc) (any, error) { return "x", nil }))
	fsys := fstest.MapFS{
		"unavail/a.yaml": {Data: []byte("task: ua\ndataset_path: x\ntest_split: test\noutput_type: generate_until\ndoc_to_text: !function utils.ok\ndoc_to_target: t\n" +
			"metric_list:\n  - metric: m\n    aggregation: !function utils.bertscore\n")},
		"unavail/b.yaml": {Data: []byte("task: ub\ndataset_path: x\ntest_split: test\noutput_type: generate_until\ndoc_to_text: !function utils.missing\ndoc_to_target: t\n" +
			"metric_list:\n  - metric: m\n    aggregation: !function utils.bertscore\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"ua": "utils.bertscore: it needs a neural model",
		"ub": "needs Python function utils.missing; utils.bertscore: it needs a neural model",
	} {
		_, err := r.Load([]string{name})
		var ue *UnavailableError
		if !errors.As(err, &ue) || ue.Reason != want {
			t.Errorf("%s: %v, want unavailable: %s", name, err, want)
		}
	}
}

// A MapDocs with FnColumns gets the split's column order.
func TestMapDocsColumns(t *testing.T) {
	var got []string
	RegisterFunction("mapcols", "utils.process", MapDocs{Columns: []string{"keys"},
		FnColumns: func(docs []Doc, cols *pyval.Columns) ([]Doc, error) {
			got = cols.Keys(docs[0])
			out := make([]Doc, len(docs))
			for i, d := range docs {
				out[i] = Doc{"q": d["q"], "z": d["z"], "a": d["a"], "keys": strings.Join(cols.Keys(d), ",")}
			}
			return out, nil
		}})
	fsys := fstest.MapFS{"mapcols/m.yaml": {Data: []byte("task: mc\ndataset_path: x\ntest_split: test\noutput_type: generate_until\n" +
		"process_docs: !function utils.process\ndoc_to_text: \"{{keys}}\"\ndoc_to_target: \"{{q}}\"\n")}}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	sel, err := r.Load([]string{"mc"})
	if err != nil {
		t.Fatal(err)
	}
	tk := sel.Tasks()[0]
	loader := func(context.Context, DatasetSpec, string) ([]Doc, error) {
		return []Doc{{"z": "1", "q": "2", "a": "3"}}, nil
	}
	columns := func(context.Context, DatasetSpec, string) (*pyval.Columns, error) {
		return pyval.ColumnsOf("z", "q", "a"), nil
	}
	if err := tk.Build(context.Background(), BuildOptions{Loader: loader, Columns: columns}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"z", "q", "a"}; !slices.Equal(got, want) {
		t.Errorf("process_docs saw columns %v, want %v", got, want)
	}
	if want := []string{"z", "q", "a", "keys"}; !slices.Equal(tk.Columns().Names, want) {
		t.Errorf("columns after process_docs %v, want %v", tk.Columns().Names, want)
	}
}
