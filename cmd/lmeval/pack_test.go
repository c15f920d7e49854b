package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/tasktree"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/hub/hubtest"
)

// toyTree is a task tree archive, laid out as GitHub's archives are,
// with one task over the Hub dataset toy/qa.
func toyTree(t *testing.T) []byte {
	t.Helper()
	yaml := `task: toy_qa
dataset_path: toy/qa
output_type: generate_until
training_split: train
test_split: test
doc_to_text: "Q: {{q}}\nA:"
doc_to_target: " {{a}}"
generation_kwargs:
  until: ["\n"]
  max_gen_toks: 4
metric_list:
  - metric: exact_match
`
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range map[string]string{
		"lm-evaluation-harness-x/lm_eval/tasks/toy/toy_qa.yaml": yaml,
		"lm-evaluation-harness-x/README.md":                     "not a task",
	} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write([]byte(data))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func jsonl(docs ...map[string]any) []byte {
	var b bytes.Buffer
	for _, d := range docs {
		line, _ := json.Marshal(d)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestPackUnpack: on a "connected" machine (a fake Hub, a server for the
// task tree), pack fetches the task tree, the dataset's splits the run
// reads and the model into one archive; on an "offline" machine (other
// caches, the Hub's address a closed port, then no network at all), the
// run fails with what to do, unpack fills the caches, and the same
// command line runs.
func TestPackUnpack(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	s.AddFile("dataset", "toy/qa", "", "data/test.jsonl", jsonl(
		map[string]any{"q": "one", "a": "1"}, map[string]any{"q": "two", "a": "2"}, map[string]any{"q": "three", "a": "3"}))
	s.AddFile("dataset", "toy/qa", "", "data/train.jsonl", jsonl(map[string]any{"q": "zero", "a": "0"}))
	model := []byte("GGUF not a real model")
	modelName := "llama"
	if b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "models", "stories260K.gguf")); err == nil {
		model = b
	} else {
		modelName = "dummy"
	}
	s.AddFile("model", "toy/tiny-GGUF", "", "tiny-Q4_K_M.gguf", model)
	tree := toyTree(t)
	treeSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(tree) }))
	defer treeSrv.Close()
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	t.Setenv(tasktree.EnvSource, "")

	run := []string{"--model", modelName, "--model_args", "pretrained=toy/tiny-GGUF:Q4_K_M", "--tasks", "toy_qa",
		"--tasks_source", treeSrv.URL + "/toy-tree.tar.gz", "--num_fewshot", "1", "--no_progress", "--bootstrap_iters", "0"}
	archive := filepath.Join(t.TempDir(), "airgap.tar.gz")
	out, err := runApp(t, append([]string{"pack", "--archive", archive}, run...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lmeval pack:\n%s", out)
	if !strings.Contains(out, "packed ") || !strings.Contains(out, "lmeval unpack "+archive) || !strings.Contains(out, "--tasks toy_qa") {
		t.Errorf("pack says:\n%s", out)
	}

	// The offline machine: its own empty caches; the Hub's address is a
	// closed port and the tree's server is gone.
	cutHub(t)
	t.Setenv("LMEVAL_CACHE_DIR", t.TempDir())
	treeSrv.Close()
	results := filepath.Join(t.TempDir(), "results")
	offline := append(append([]string{}, run...), "--output_path", results)
	_, err = runApp(t, append([]string{"run"}, offline...)...)
	if err == nil || !strings.Contains(err.Error(), "lmeval pack") {
		t.Fatalf("before unpack: %v, want an error saying what to do", err)
	}
	t.Logf("before unpack: %v", err)
	out, err = runApp(t, "unpack", archive)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lmeval unpack:\n%s", out)
	if !strings.Contains(out, "HF_HUB_OFFLINE=1 lmeval run --model "+modelName) {
		t.Errorf("unpack says:\n%s", out)
	}
	for _, mode := range []string{"1", ""} {
		t.Setenv("HF_HUB_OFFLINE", mode)
		if _, err := runApp(t, append([]string{"run"}, offline...)...); err != nil {
			t.Fatalf("HF_HUB_OFFLINE=%q: after unpack: %v", mode, err)
		}
		checkToyResults(t, results)
		os.RemoveAll(results)
		c := hub.New(hub.Options{})
		p, err := c.ResolveModel(context.Background(), "toy/tiny-GGUF:Q4_K_M")
		if err != nil {
			t.Fatalf("HF_HUB_OFFLINE=%q: the packed model: %v", mode, err)
		}
		if b, _ := os.ReadFile(p); !bytes.Equal(b, model) {
			t.Errorf("the unpacked model differs")
		}
	}

	// With no network at all: a network namespace without interfaces.
	if os.Geteuid() != 0 {
		t.Log("not root: the run in a network namespace without interfaces is left out")
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Log("no unshare: the run in a network namespace without interfaces is left out")
		return
	}
	bin := buildBinary(t)
	cmd := exec.Command(unshare, append([]string{"-n", bin, "run"}, offline...)...)
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unshare -n lmeval run: %v\n%s", err, b)
	}
	checkToyResults(t, results)
}

func checkToyResults(t *testing.T, dir string) {
	t.Helper()
	if n, _ := readResults(t, dir).NSamples.Get("toy_qa"); n.Effective != 3 {
		t.Errorf("toy_qa n-samples %+v, want 3", n)
	}
}
