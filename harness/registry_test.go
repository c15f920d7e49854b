package harness

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/harness/tasktree"
)

const sharedTree = "../../shared/lm-eval"

// With lm-eval's own tree as the source, every built-in task that matches
// lm-eval's definition stays built in; the others come from the tree.
func TestNewRegistryWithSharedTree(t *testing.T) {
	if _, err := os.Stat(sharedTree); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	t.Setenv(tasktree.EnvSource, "")
	r, tree, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), TasksSource: sharedTree, Want: []string{"hellaswag"}})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(sharedTree, "lm_eval", "tasks"))
	if tree == nil || tree.Dir != abs {
		t.Fatalf("tree %+v, want %s", tree, abs)
	}
	builtin := task.NewRegistry()
	builtin.AddFS("", benchmarks.FS())
	var fromTree, kept []string
	for _, e := range builtin.Entries(task.KindTask, task.KindGroup) {
		got, ok := r.Lookup(e.Name)
		if !ok {
			t.Errorf("%s: missing", e.Name)
			continue
		}
		if strings.HasPrefix(got.File, abs) {
			fromTree = append(fromTree, e.Name)
		} else {
			kept = append(kept, e.Name)
		}
	}
	t.Logf("built in kept: %d; from the tree: %v", len(kept), fromTree)
	if len(kept) == 0 {
		t.Error("no built-in task is identical to lm-eval's")
	}
	if e, ok := r.Lookup("mmlu_pro"); !ok || !strings.HasPrefix(e.File, abs) {
		t.Errorf("mmlu_pro: %+v, want it from the tree", e)
	}
}

// A tree whose hellaswag differs from the built-in's replaces it; one
// that differs only in comments and key order does not.
func TestNewRegistryPrefersIdenticalBuiltins(t *testing.T) {
	t.Setenv(tasktree.EnvSource, "")
	yaml, err := fs.ReadFile(benchmarks.FS(), "hellaswag/hellaswag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		fromTree   bool
	}{
		{"identical", "# a different comment\n" + string(yaml), false},
		{"different", string(yaml) + "num_fewshot: 3\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "hellaswag"), 0o755)
			os.WriteFile(filepath.Join(dir, "hellaswag", "hellaswag.yaml"), []byte(c.text), 0o644)
			os.MkdirAll(filepath.Join(dir, "extra"), 0o755)
			os.WriteFile(filepath.Join(dir, "extra", "extra.yaml"), []byte("task: extra_task\ndataset_path: json\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\ntest_split: test\n"), 0o644)
			r, tree, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), TasksSource: dir, Want: []string{"extra_task"}})
			if err != nil {
				t.Fatal(err)
			}
			if tree == nil {
				t.Fatal("no tree")
			}
			e, _ := r.Lookup("hellaswag")
			if got := strings.HasPrefix(e.File, dir); got != c.fromTree {
				t.Errorf("hellaswag from %s, want from the tree: %v", e.File, c.fromTree)
			}
			if _, ok := r.Lookup("extra_task"); !ok {
				t.Error("extra_task not indexed")
			}
			if _, ok := r.Lookup("arc_easy"); !ok {
				t.Error("built-in arc_easy lost")
			}
		})
	}
}

// Without a source and with every wanted task built in, nothing is
// downloaded and no tree is used.
func TestNewRegistryBuiltinOnly(t *testing.T) {
	t.Setenv(tasktree.EnvSource, "")
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	t.Setenv("HF_HUB_OFFLINE", "1")
	_, tree, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Want: []string{"hellaswag", "arc_*"}})
	if err != nil || tree != nil {
		t.Fatalf("tree %v, err %v", tree, err)
	}
	// A task that is not built in needs the tree: offline and not cached,
	// the error says so.
	_, _, err = NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Want: []string{"mmlu_pro"}})
	if err == nil || !strings.Contains(err.Error(), "mmlu_pro") || !strings.Contains(err.Error(), "offline") {
		t.Errorf("got %v, want an error naming mmlu_pro and offline mode", err)
	}
	// NoTree: the built-in tasks and include paths only, even with a
	// source given.
	r, tree, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), TasksSource: "/nonexistent/tasks", NoTree: true})
	if err != nil || tree != nil {
		t.Fatalf("NoTree: tree %v, err %v", tree, err)
	}
	if _, ok := r.Lookup("hellaswag"); !ok {
		t.Error("NoTree: hellaswag is not built in")
	}
}

// recordingTransport fails every request, recording its URL.
type recordingTransport struct {
	mu   sync.Mutex
	urls []string
}

func (rt *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.urls = append(rt.urls, req.URL.String())
	return nil, errors.New("the network is cut in this test")
}

// TestUnknownTaskNames: a misspelt name gets the closest names of every
// source at hand (built-ins, include paths, lm-eval's pinned tree) and a
// name declared by a broken file in an include path gets that file and
// line, both before anything is downloaded; a name only lm-eval's tree has
// is downloaded, announced with its size; --tasks_source none turns the
// tree off.
func TestUnknownTaskNames(t *testing.T) {
	t.Setenv(tasktree.EnvSource, "")
	t.Setenv("HF_HUB_OFFLINE", "")
	inc := t.TempDir()
	os.WriteFile(filepath.Join(inc, "mine.yaml"), []byte("task: my_local_task\ndataset_path: json\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\ntest_split: test\n"), 0o644)
	os.WriteFile(filepath.Join(inc, "broken.yaml"), []byte("task: my_broken_task\ntag:\n  - a\n - b\n"), 0o644)
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	cases := []struct {
		name, source string
		want         []string
		wantErr      []string
		download     bool
	}{
		{"misspelt built-in", "", []string{"hellaswg"}, []string{"hellaswg (did you mean hellaswag?)"}, false},
		{"misspelt include-path task", "", []string{"my_local_tsk"}, []string{"did you mean my_local_task?"}, false},
		{"misspelt tree task", "", []string{"mmlu_pro_lw"}, []string{"did you mean mmlu_pro_law"}, false},
		{"broken file", "", []string{"my_broken_task"}, []string{"broken.yaml:4:"}, false},
		{"tree task", "", []string{"mmlu_pro"}, []string{"lm-eval's task tree"}, true},
		{"tree task, tree off", "none", []string{"mmlu_pro"}, []string{"mmlu_pro", "lm-eval's task tree", "--tasks_source none"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := &recordingTransport{}
			logs.Reset()
			_, _, err := NewRegistry(context.Background(), RegistryOptions{
				Builtin: benchmarks.FS(), Include: []string{inc}, TasksSource: c.source, Want: c.want,
				Tree: tasktree.Options{CacheDir: t.TempDir(), HTTPClient: &http.Client{Transport: rt}},
			})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if got := len(rt.urls) > 0; got != c.download {
				t.Errorf("downloads %v, want a download: %v", rt.urls, c.download)
			}
			if c.download && !strings.Contains(logs.String(), "15375 files") {
				t.Errorf("the download is not announced with its size:\n%s", logs.String())
			}
		})
	}
}

// The names embedded for the pinned tree are those lmeval indexes in
// ../shared/lm-eval (at the pinned commit): regenerate them with
// scripts/tasktree-pin -names when either changes.
func TestPinnedNamesMatchSharedCheckout(t *testing.T) {
	dir := filepath.Join(sharedTree, "lm_eval", "tasks")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	r := task.NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	got, want := r.All(), tasktree.PinnedNames()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("../shared/lm-eval has %d names, pinned-names.txt.gz %d: run go run ./scripts/tasktree-pin -names harness/tasktree/pinned-names.txt.gz ../shared/lm-eval", len(got), len(want))
	}
}

// TestIncludeShadowsBuiltin: a task of an include path named like a
// built-in one replaces it, and the run says so.
func TestIncludeShadowsBuiltin(t *testing.T) {
	inc := t.TempDir()
	data := filepath.Join(inc, "docs.jsonl")
	os.WriteFile(data, []byte(`{"q": "x", "a": "y"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(inc, "hellaswag.yaml"), []byte("task: hellaswag\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: "+data+"\ntest_split: test\noutput_type: generate_until\ndoc_to_text: '{{q}}'\ndoc_to_target: '{{a}}'\n"), 0o644)
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{inc}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{"model": "dummy", "tasks": []string{"hellaswag", "arc_easy"}, "include_path": []string{inc}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan(cfg, WithRegistry(reg)); err != nil {
		t.Fatal(err)
	}
	want := `Duplicate task name \"hellaswag\": ` + filepath.Join(inc, "hellaswag.yaml") + ` overrides built-in:hellaswag/hellaswag.yaml`
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), want) {
		t.Errorf("no warning that the include path's hellaswag shadows the built-in one:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "arc_easy") {
		t.Errorf("a warning for a task nothing shadows:\n%s", logs.String())
	}
}
