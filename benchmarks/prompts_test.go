package benchmarks

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/task"
)

// fixtureLoader serves the fixture documents as the dataset loader would.
func fixtureLoader(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
	dir, ok := fixtures.Dir(spec.Path, spec.Name)
	if !ok {
		return nil, fmt.Errorf("no fixture for dataset %s/%s", spec.Path, spec.Name)
	}
	splits, err := fixtureSplits(dir)
	if err != nil {
		return nil, err
	}
	docs, ok := splits[split]
	if !ok {
		return nil, fmt.Errorf("fixture %s has no split %s", dir, split)
	}
	return docs, nil
}

// expectedFiles lists testdata/expected/*.json.
func expectedFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "expected", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no expectations in testdata/expected (%v)", err)
	}
	sort.Strings(files)
	return files
}

// builtin is a registry of the embedded tasks.
func builtin(t *testing.T) *task.Registry {
	t.Helper()
	r := task.NewRegistry()
	if err := r.AddFS("", FS()); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPrompts builds every task with expectations from the built-in YAML
// and the fixture documents, and compares prompts, targets, choices and
// requests with what lm-eval builds (testdata/expected, written by
// gen_expected.py), zero-shot and few-shot.
func TestPrompts(t *testing.T) {
	checkPrompts(t, builtin(t))
}

// TestUpstreamYAMLPrompts does the same with lm-eval's own YAML (the
// unmodified sample in ../shared) given as an include path, resolving its
// !function tags to this package's native functions.
func TestUpstreamYAMLPrompts(t *testing.T) {
	needUpstream(t)
	r := task.NewRegistry()
	if err := r.AddDir(upstreamDir); err != nil {
		t.Fatal(err)
	}
	checkPrompts(t, r)
}

func checkPrompts(t *testing.T, r *task.Registry) {
	for _, f := range expectedFiles(t) {
		e := readExpected(t, filepath.Base(f))
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			sel, err := r.Load([]string{e.Task})
			if err != nil {
				t.Fatal(err)
			}
			tasks := sel.Tasks()
			if len(tasks) != 1 {
				t.Fatalf("%s loaded %d tasks", e.Task, len(tasks))
			}
			tk := tasks[0]
			n := e.NumFewshot
			if err := tk.BuildRequests(context.Background(), task.BuildOptions{Loader: fixtureLoader, NumFewshot: &n}); err != nil {
				t.Fatal(err)
			}
			compareTask(t, tk, e)
		})
	}
}

func compareTask(t *testing.T, tk *task.Task, e *expected) {
	t.Helper()
	if tk.NumFewshot != e.NumFewshot {
		t.Errorf("num_fewshot = %d, want %d", tk.NumFewshot, e.NumFewshot)
	}
	if len(tk.Docs) != len(e.Docs) {
		t.Fatalf("%d documents, want %d", len(tk.Docs), len(e.Docs))
	}
	byDoc := map[int][]task.Instance{}
	for _, in := range tk.Instances {
		byDoc[in.DocID] = append(byDoc[in.DocID], in)
	}
	for i, want := range e.Docs {
		d := tk.Docs[i]
		if d.ID != want.DocID {
			t.Errorf("doc %d: id %d, want %d", i, d.ID, want.DocID)
		}
		if want.Prompt != d.Context {
			t.Errorf("doc %d: prompt\n got %q\nwant %q", i, d.Context, want.Prompt)
		}
		if got := jsonValue(t, d.Target); !reflect.DeepEqual(got, want.Target) {
			t.Errorf("doc %d: target %#v, want %#v", i, got, want.Target)
		}
		if got := jsonValue(t, d.Choices); want.Choices != nil && !reflect.DeepEqual(got, any(want.Choices)) {
			t.Errorf("doc %d: choices\n got %q\nwant %q", i, got, want.Choices)
		}
		ins := byDoc[want.DocID]
		if len(ins) != len(want.Requests) {
			t.Errorf("doc %d: %d requests, want %d", i, len(ins), len(want.Requests))
			continue
		}
		for j, wr := range want.Requests {
			in := ins[j]
			if string(in.Type) != wr.Type {
				t.Errorf("doc %d request %d: type %s, want %s", i, j, in.Type, wr.Type)
			}
			var args []any
			switch in.Type {
			case "loglikelihood":
				args = []any{in.Loglikelihood.Context, in.Loglikelihood.Continuation}
			case "loglikelihood_rolling":
				args = []any{in.Rolling.Text}
			case "generate_until":
				args = []any{in.Generate.Context, jsonValue(t, in.GenKwargs)}
			}
			if !reflect.DeepEqual(args, wr.Args) {
				t.Errorf("doc %d request %d: args\n got %q\nwant %q", i, j, args, wr.Args)
			}
			if in.Repeats != want.Repeats {
				t.Errorf("doc %d request %d: repeats %d, want %d", i, j, in.Repeats, want.Repeats)
			}
		}
	}
}

// jsonValue round-trips v through JSON, to compare with decoded
// expectations.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEveryTaskHasExpectations keeps the expectations complete: every
// built-in task except the MMLU subjects (two of which are covered) has a
// zero-shot file.
func TestEveryTaskHasExpectations(t *testing.T) {
	r := builtin(t)
	for _, name := range r.Tasks() {
		if strings.HasPrefix(name, "mmlu_") && name != "mmlu_abstract_algebra" && name != "mmlu_anatomy" {
			continue
		}
		files, _ := fs.Glob(os.DirFS(filepath.Join("testdata", "expected")), name+".*shot.json")
		if len(files) == 0 {
			t.Errorf("task %s has no testdata/expected/%s.<n>shot.json", name, name)
		}
	}
}
