package all_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lmeval/harness/pyrand"
	"lmeval/harness/task"
)

const lmevalTasks = "../../../shared/lm-eval/lm_eval/tasks"

// refCase is one task of testdata/cases.json.
type refCase struct {
	Task       string            `json:"task"`
	Include    string            `json:"include"`
	DataFiles  map[string]string `json:"data_files"`
	NumFewshot *int              `json:"num_fewshot"`
}

type refRequest struct {
	DocID       int    `json:"doc_id"`
	Idx         int    `json:"idx"`
	Repeats     int    `json:"repeats"`
	RequestType string `json:"request_type"`
	Arguments   []any  `json:"arguments"`
}

func readJSONL[T any](t *testing.T, file string) []T {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, v)
	}
	return out
}

// jsonLoader reads dataset_path json with data_files, as datasets does.
func jsonLoader(t *testing.T) task.DocLoader {
	return func(_ context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		files, _ := spec.Kwargs["data_files"].(map[string]any)
		f, ok := files[split].(string)
		if !ok {
			return nil, fmt.Errorf("no data file for split %q", split)
		}
		return readJSONL[task.Doc](t, f), nil
	}
}

// TestRequestsMatchLmEval builds each case's wrapper YAML (the lm-eval
// task file included, local documents) and compares every request with
// the one the real lm-eval made (testdata/requests, gen_requests.py).
func TestRequestsMatchLmEval(t *testing.T) {
	tasksDir, err := filepath.Abs(lmevalTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	data, err := filepath.Abs("../testdata/data")
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	b, err := os.ReadFile("../testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Task, func(t *testing.T) {
			dir := t.TempDir()
			var y strings.Builder
			fmt.Fprintf(&y, "include: %s\ntask: %s\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n", filepath.Join(tasksDir, c.Include), c.Task)
			for split, f := range c.DataFiles {
				fmt.Fprintf(&y, "    %s: %q\n", split, filepath.Join(data, f))
			}
			if err := os.WriteFile(filepath.Join(dir, c.Task+".yaml"), []byte(y.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			r := task.NewRegistry()
			if err := r.AddDir(dir); err != nil {
				t.Fatal(err)
			}
			sel, err := r.Load([]string{c.Task})
			if err != nil {
				t.Fatal(err)
			}
			tk := sel.Tasks()[0]
			pyrand.SeedGlobal(0) // lm-eval's random.seed(0) before the tasks are built
			if err := tk.Build(context.Background(), task.BuildOptions{Loader: jsonLoader(t), NumFewshot: c.NumFewshot}); err != nil {
				t.Fatal(err)
			}
			want := readJSONL[refRequest](t, filepath.Join("..", "testdata", "requests", c.Task+".jsonl"))
			if len(tk.Instances) != len(want) {
				t.Fatalf("%d requests, lm-eval made %d", len(tk.Instances), len(want))
			}
			got := map[[2]int]task.Instance{}
			for _, in := range tk.Instances {
				got[[2]int{in.DocID, in.Idx}] = in
			}
			for _, w := range want {
				in, ok := got[[2]int{w.DocID, w.Idx}]
				if !ok {
					t.Errorf("no request for document %d, index %d", w.DocID, w.Idx)
					continue
				}
				if in.Type != w.RequestType {
					t.Errorf("doc %d/%d: type %s, want %s", w.DocID, w.Idx, in.Type, w.RequestType)
				}
				var args []any
				switch in.Type {
				case task.OutputLoglikelihood:
					args = []any{in.Loglikelihood.Context, in.Loglikelihood.Continuation}
				case task.OutputGenerateUntil:
					args = []any{in.Generate.Context, normal(t, in.GenKwargs)}
				}
				if !reflect.DeepEqual(args, w.Arguments) {
					t.Errorf("doc %d/%d: arguments\n got %q\nwant %q", w.DocID, w.Idx, args, w.Arguments)
				}
			}
		})
	}
}
