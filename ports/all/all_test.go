package all_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/all"
)

// upstreamTasks is lm-eval's task tree in ../shared.
var upstreamTasks = filepath.Join("..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks")

type expectedRequests struct {
	Wrappers map[string]string `json:"wrappers"`
	Requests []struct {
		Task        string `json:"task"`
		DocID       int    `json:"doc_id"`
		Idx         int    `json:"idx"`
		Repeats     int    `json:"repeats"`
		RequestType string `json:"request_type"`
		Arguments   []any  `json:"arguments"`
	} `json:"requests"`
}

// TestMathRequestsMatchLMEval builds lm-eval's own minerva_math,
// leaderboard math and hendrycks_math YAML (through wrappers that point
// them at testdata/math_docs) and compares every request with the ones the
// real lm-eval built (testdata/math_requests.json, written by
// gen_math_requests.py), few-shot included.
func TestMathRequestsMatchLMEval(t *testing.T) {
	abs, err := filepath.Abs(upstreamTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Skipf("lm-eval's task tree is not in ../shared: %v", err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "math_requests.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want expectedRequests
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Abs(filepath.Join("testdata", "math_docs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var names []string
	for name, rel := range want.Wrappers {
		y := "include: " + filepath.Join(abs, rel) + "\n" +
			"task: " + name + "\n" +
			"dataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n" +
			"    train: " + filepath.Join(docs, "train.jsonl") + "\n" +
			"    test: " + filepath.Join(docs, "test.jsonl") + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	r := task.NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	sel, err := r.Load(names)
	if err != nil {
		t.Fatal(err)
	}
	loader := func(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		ds, err := dataset.Load(ctx, dataset.Spec{Path: spec.Path, Name: spec.Name, Kwargs: spec.Kwargs}, split, dataset.Options{Offline: true})
		if err != nil {
			return nil, err
		}
		out := make([]task.Doc, len(ds))
		for i, d := range ds {
			out[i] = d
		}
		return out, nil
	}
	got := map[string][]task.Instance{}
	for _, tk := range sel.Tasks() {
		if err := tk.BuildRequests(context.Background(), task.BuildOptions{Loader: loader}); err != nil {
			t.Fatalf("%s: %v", tk.Name, err)
		}
		got[tk.Name] = tk.Instances
	}
	seen := map[string]int{}
	for _, w := range want.Requests {
		ins := got[w.Task]
		i := seen[w.Task]
		seen[w.Task]++
		if i >= len(ins) {
			t.Errorf("%s: lm-eval has request %d, lmeval only %d", w.Task, i, len(ins))
			continue
		}
		in := ins[i]
		if in.DocID != w.DocID || string(in.Type) != w.RequestType || in.Repeats != w.Repeats {
			t.Errorf("%s request %d: doc %d %s x%d, want doc %d %s x%d", w.Task, i, in.DocID, in.Type, in.Repeats, w.DocID, w.RequestType, w.Repeats)
		}
		if in.Type != "generate_until" {
			continue
		}
		if in.Generate.Context != w.Arguments[0] {
			t.Errorf("%s doc %d: context\n got %q\nwant %q", w.Task, w.DocID, in.Generate.Context, w.Arguments[0])
		}
		gk, _ := json.Marshal(in.GenKwargs)
		var gkv any
		json.Unmarshal(gk, &gkv)
		if !reflect.DeepEqual(gkv, w.Arguments[1]) {
			t.Errorf("%s doc %d: generation kwargs %v, want %v", w.Task, w.DocID, gkv, w.Arguments[1])
		}
	}
	t.Logf("%d requests of %d tasks compared", len(want.Requests), len(got))
	for name, ins := range got {
		if seen[name] != len(ins) {
			t.Errorf("%s: lmeval built %d requests, lm-eval %d", name, len(ins), seen[name])
		}
	}
}
