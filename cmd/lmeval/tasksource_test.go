package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestTasksSourceDownload: a task that is not built in comes from the
// archive --tasks_source names (a local server standing in for GitHub),
// downloaded once; later runs, offline included, use the cached tree, and
// ls says which file each task came from.
func TestTasksSourceDownload(t *testing.T) {
	const commit = "0123456789abcdef0123456789abcdef01234567"
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	files := map[string]string{
		"lm_eval/tasks/demo/demo.yaml": "task: demo_from_tree\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: x.jsonl\noutput_type: generate_until\ndoc_to_text: '{{q}}'\ndoc_to_target: '{{a}}'\ntest_split: test\nmetric_list:\n  - metric: exact_match\n",
	}
	for n, c := range files {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "lm-evaluation-harness-" + commit + "/" + n, Mode: 0o644, Size: int64(len(c))})
		tw.Write([]byte(c))
	}
	tw.Close()
	gz.Close()
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/me/lm-evaluation-harness/archive/"+commit+".tar.gz" {
			http.NotFound(w, r)
			return
		}
		gets.Add(1)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(buf.Bytes()))
	}))
	defer srv.Close()
	cacheDir := t.TempDir()
	t.Setenv("LMEVAL_CACHE_DIR", cacheDir)
	t.Setenv("HF_HUB_OFFLINE", "")
	source := srv.URL + "/me/lm-evaluation-harness@" + commit

	out, err := runApp(t, "validate", "--no_docs", "--no_progress", "--tasks_source", source, "--tasks", "demo_from_tree,hellaswag")
	if err != nil || !strings.Contains(out, "ok: demo_from_tree, hellaswag") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	t.Setenv("HF_HUB_OFFLINE", "1")
	out, err = runApp(t, "ls", "--tasks_source", source)
	if err != nil {
		t.Fatal(err)
	}
	var demo, hs string
	for _, line := range strings.Split(out, "\n") {
		switch f := strings.Fields(line); {
		case len(f) > 0 && f[0] == "demo_from_tree":
			demo = line
		case len(f) > 0 && f[0] == "hellaswag":
			hs = line
		}
	}
	// The file is the column before RUNS.
	if !strings.Contains(demo, cacheDir+"/tasks/") || !strings.Contains(demo, "/lm_eval/tasks/demo/demo.yaml ") {
		t.Errorf("ls: demo_from_tree line %q, want the cached tree's file", demo)
	}
	if !strings.Contains(hs, "built-in:hellaswag/hellaswag.yaml") {
		t.Errorf("ls: hellaswag line %q, want the built-in file (the tree has none)", hs)
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("%d downloads, want 1", n)
	}
	// Offline, a source that was never downloaded is an error naming the
	// task and offline mode.
	_, err = runApp(t, "validate", "--no_docs", "--tasks_source", srv.URL+"/me/lm-evaluation-harness@fedcba", "--tasks", "demo_from_tree")
	if err == nil || !strings.Contains(err.Error(), "demo_from_tree") || !strings.Contains(err.Error(), "offline") {
		t.Errorf("offline, uncached: %v", err)
	}
}
