package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// A task naming a helper registered as Unavailable is unavailable with
// the helper's reason (helpers with the same reason named together),
// before any functions with no port at all.
func TestUnavailableHelper(t *testing.T) {
	RegisterUnavailable(helperAt("unavail", "utils.bertscore"), "it needs a neural model")
	RegisterUnavailable(helperAt("unavail", "utils.bertscore2"), "it needs a neural model")
	RegisterDocFunc(helperAt("unavail", "utils.ok"), func(Doc) (any, error) { return "x", nil })
	fsys := fstest.MapFS{
		"unavail/a.yaml": {Data: []byte("task: ua\ndataset_path: x\ntest_split: test\noutput_type: generate_until\ndoc_to_text: !function utils.ok\ndoc_to_target: t\n" +
			"metric_list:\n  - metric: m\n    aggregation: !function utils.bertscore\n")},
		"unavail/b.yaml": {Data: []byte("task: ub\ndataset_path: x\ntest_split: test\noutput_type: generate_until\ndoc_to_text: !function utils.missing\ndoc_to_target: t\n" +
			"metric_list:\n  - metric: m\n    aggregation: !function utils.bertscore\n  - metric: m2\n    aggregation: !function utils.bertscore2\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"ua": "utils.bertscore: it needs a neural model",
		"ub": "utils.bertscore, utils.bertscore2: it needs a neural model; needs Python function utils.missing",
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
	RegisterMapDocs(helperAt("mapcols", "utils.process"), MapDocs{Columns: []string{"keys"},
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
	if err := tk.BuildRequests(context.Background(), BuildOptions{Loader: loader, Columns: columns}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"z", "q", "a"}; !slices.Equal(got, want) {
		t.Errorf("process_docs saw columns %v, want %v", got, want)
	}
	if want := []string{"z", "q", "a", "keys"}; !slices.Equal(tk.Columns().Names, want) {
		t.Errorf("columns after process_docs %v, want %v", tk.Columns().Names, want)
	}
}

// A MapDocs with FnRand draws from one stream per task, the few-shot
// split first (lm-eval's fewshot_docs() before eval_docs), even with no
// shots, and each split once.
func TestMapDocsModuleRandom(t *testing.T) {
	var order []string
	RegisterMapDocs(helperAt("maprand", "utils.process"), MapDocs{Columns: []string{"draw"},
		FnRand: func(docs []Doc, rnd *pyrand.Rand) ([]Doc, error) {
			order = append(order, docs[0]["split"].(string))
			out := make([]Doc, len(docs))
			for i, d := range docs {
				out[i] = Doc{"split": d["split"], "draw": int64(rnd.Randbelow(1000))}
			}
			return out, nil
		}})
	fsys := fstest.MapFS{"maprand/m.yaml": {Data: []byte("task: mr\ndataset_path: x\ntest_split: test\nvalidation_split: validation\n" +
		"fewshot_split: validation\noutput_type: generate_until\nprocess_docs: !function utils.process\ndoc_to_text: \"{{draw}}\"\ndoc_to_target: \"{{split}}\"\n")}}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	sel, err := r.Load([]string{"mr"})
	if err != nil {
		t.Fatal(err)
	}
	tk := sel.Tasks()[0]
	loader := func(_ context.Context, _ DatasetSpec, split string) ([]Doc, error) {
		return []Doc{{"split": split}, {"split": split}}, nil
	}
	random := pyrand.NewModule(7)
	for _, shots := range []int{0, 1} {
		n := shots
		if err := tk.BuildRequests(context.Background(), BuildOptions{Loader: loader, NumFewshot: &n, Random: random}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"validation", "test"}; !slices.Equal(order, want) {
		t.Fatalf("processed %v, want %v (once each)", order, want)
	}
	rnd := pyrand.New(7)
	var want []string
	for range 4 {
		want = append(want, fmt.Sprint(rnd.Randbelow(1000)))
	}
	var got []string
	for _, d := range tk.Docs {
		got = append(got, fmt.Sprint(d.Doc["draw"]))
	}
	if !slices.Equal(got, want[2:]) {
		t.Errorf("test documents drew %v, want %v (after the validation split's %v)", got, want[2:], want[:2])
	}
}
