package hub

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/hub/hubtest"
)

func TestParseModelRef(t *testing.T) {
	local := filepath.Join(t.TempDir(), "a", "b")
	os.MkdirAll(filepath.Dir(local), 0o755)
	os.WriteFile(local, nil, 0o644)
	tests := []struct {
		in   string
		want ModelRef
		ok   bool
	}{
		{"hf://owner/repo/model-Q4_K_M.gguf", ModelRef{Repo: "owner/repo", File: "model-Q4_K_M.gguf"}, true},
		{"hf://owner/repo@v1.0/sub/dir/m.gguf", ModelRef{Repo: "owner/repo", Revision: "v1.0", File: "sub/dir/m.gguf"}, true},
		{"hf://models/owner/repo/m.gguf", ModelRef{Repo: "owner/repo", File: "m.gguf"}, true},
		{"hf://owner/repo", ModelRef{}, false},
		{"hf://owner/repo/../x.gguf", ModelRef{}, false},
		{"owner/repo:Q4_K_M", ModelRef{Repo: "owner/repo", Tag: "Q4_K_M"}, true},
		{"unsloth/Qwen3-0.6B-GGUF", ModelRef{Repo: "unsloth/Qwen3-0.6B-GGUF"}, true},
		{"models/tiny.gguf", ModelRef{}, false},
		{"/abs/path/model.gguf", ModelRef{}, false},
		{"./rel/model", ModelRef{}, false},
		{"model.gguf", ModelRef{}, false},
		{local, ModelRef{}, false},
		{"owner/repo:bad tag", ModelRef{}, false},
	}
	for _, tc := range tests {
		got, ok := ParseModelRef(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseModelRef(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestBestModelFile(t *testing.T) {
	files := []string{
		"README.md",
		"mmproj-model-f16.gguf",
		"Model-Q2_K.gguf",
		"Model-Q4_K_M-00002-of-00002.gguf",
		"Model-Q4_K_M-00001-of-00002.gguf",
		"Model-Q8_0.gguf",
		"Model.imatrix.gguf",
		"sub/Model-q5_k_s.gguf",
	}
	tests := []struct {
		files []string
		tag   string
		want  string
	}{
		{files, "", "Model-Q4_K_M-00001-of-00002.gguf"},
		{files, "Q8_0", "Model-Q8_0.gguf"},
		{files, "q8_0", "Model-Q8_0.gguf"},
		{files, "Q5_K_S", "sub/Model-q5_k_s.gguf"},
		{files, "F16", ""}, // mmproj is never the model
		{files, "IQ1_S", ""},
		{[]string{"a.gguf", "b-Q8_0.gguf"}, "", "b-Q8_0.gguf"},
		{[]string{"mmproj.gguf", "a.gguf"}, "", "a.gguf"},
	}
	for _, tc := range tests {
		if got := bestModelFile(tc.files, tc.tag); got != tc.want {
			t.Errorf("bestModelFile(tag %q) = %q, want %q", tc.tag, got, tc.want)
		}
	}
	if got, want := splitParts("d/M-00002-of-00003.gguf"), []string{"d/M-00001-of-00003.gguf", "d/M-00002-of-00003.gguf", "d/M-00003-of-00003.gguf"}; !reflect.DeepEqual(got, want) {
		t.Errorf("splitParts = %v, want %v", got, want)
	}
}

func TestDownloadModel(t *testing.T) {
	srv := hubtest.New(t)
	parts := [][]byte{randomBytes(3000, 20), randomBytes(2000, 21)}
	srv.AddFile("model", "acme/M-GGUF", "", "M-Q4_K_M-00001-of-00002.gguf", parts[0])
	srv.AddFile("model", "acme/M-GGUF", "", "M-Q4_K_M-00002-of-00002.gguf", parts[1])
	srv.AddFile("model", "acme/M-GGUF", "", "M-Q8_0.gguf", randomBytes(4000, 22))
	srv.AddFile("model", "acme/M-GGUF", "", "mmproj-M-Q8_0.gguf", randomBytes(100, 23))
	cache := t.TempDir()
	c := newClient(t, srv, Options{CacheDir: cache})
	ctx := context.Background()
	commit := srv.Commit("model", "acme/M-GGUF", "main")
	snap := filepath.Join(cache, "models--acme--M-GGUF", "snapshots", commit)

	for _, ref := range []string{"acme/M-GGUF", "acme/M-GGUF:q4_k_m", "hf://acme/M-GGUF/M-Q4_K_M-00002-of-00002.gguf"} {
		p, err := c.ResolveModel(ctx, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if want := filepath.Join(snap, "M-Q4_K_M-00001-of-00002.gguf"); p != want {
			t.Errorf("%s: path %s, want %s", ref, p, want)
		}
		for i, b := range parts {
			got, err := os.ReadFile(filepath.Join(snap, splitParts("M-Q4_K_M-00001-of-00002.gguf")[i]))
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("%s: part %d missing or different (%v)", ref, i+1, err)
			}
		}
	}
	p, err := c.ResolveModel(ctx, "acme/M-GGUF:Q8_0")
	if err != nil || p != filepath.Join(snap, "M-Q8_0.gguf") {
		t.Errorf("Q8_0: %s, %v", p, err)
	}
	_, err = c.ResolveModel(ctx, "acme/M-GGUF:IQ2_XS")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "M-Q8_0.gguf") {
		t.Errorf("missing tag: err = %v, want ErrNotFound listing the GGUF files", err)
	}
	if p, err := c.ResolveModel(ctx, "local/dir/model.gguf"); p != "local/dir/model.gguf" || err != nil {
		t.Errorf("local path changed: %s, %v", p, err)
	}
	off := newClient(t, srv, Options{CacheDir: cache, Offline: true})
	if p, err := off.ResolveModel(ctx, "acme/M-GGUF:Q8_0"); err != nil || p != filepath.Join(snap, "M-Q8_0.gguf") {
		t.Errorf("offline by tag: %s, %v", p, err)
	}
	if _, err := off.ResolveModel(ctx, "acme/Other-GGUF:Q8_0"); !errors.Is(err, ErrOffline) {
		t.Errorf("offline uncached repo: err = %v, want ErrOffline", err)
	}
}

func TestHubFile(t *testing.T) {
	c := New(Options{Endpoint: "https://hub.example/mirror", CacheDir: t.TempDir()})
	tests := []struct {
		in   string
		repo Repo
		rev  string
		file string
		ok   bool
	}{
		{"https://hub.example/mirror/datasets/o/n/resolve/main/data/t.json", Repo{Dataset, "o/n"}, "main", "data/t.json", true},
		{"https://hub.example/mirror/o/n/resolve/refs%2Fpr%2F1/m.gguf", Repo{Model, "o/n"}, "refs/pr/1", "m.gguf", true},
		{"https://hub.example/mirror/datasets/legacy/resolve/v1/x.csv", Repo{Dataset, "legacy"}, "v1", "x.csv", true},
		{"hf://datasets/o/n@v2/a/b.parquet", Repo{Dataset, "o/n"}, "v2", "a/b.parquet", true},
		{"hf://o/n/m.gguf", Repo{Model, "o/n"}, "", "m.gguf", true},
		{"https://other.example/datasets/o/n/resolve/main/t.json", Repo{}, "", "", false},
		{"https://hub.example/mirror/cdn/abc", Repo{}, "", "", false},
		{"hf://datasets/o/n", Repo{}, "", "", false},
	}
	for _, tc := range tests {
		repo, rev, file, ok := c.HubFile(tc.in)
		if ok != tc.ok || repo != tc.repo || rev != tc.rev || file != tc.file {
			t.Errorf("HubFile(%q) = %v %q %q %v; want %v %q %q %v", tc.in, repo, rev, file, ok, tc.repo, tc.rev, tc.file, tc.ok)
		}
	}
}

func TestTreePagination(t *testing.T) {
	srv := hubtest.New(t)
	names := []string{"a.md", "b-Q2_K.gguf", "c/d.txt", "e-Q4_K_M.gguf", "f.json"}
	for i, n := range names {
		srv.AddFile("model", "acme/big", "", n, randomBytes(10, int64(40+i)))
	}
	srv.SetPageSize(2)
	c := newClient(t, srv, Options{})
	tree, err := c.Tree(context.Background(), Repo{Model, "acme/big"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tree {
		got = append(got, e.Path)
	}
	if !reflect.DeepEqual(got, names) {
		t.Errorf("paginated tree = %v, want %v", got, names)
	}
	if n := srv.Count("GET", "/tree/"); n < 3 {
		t.Errorf("%d tree requests, want at least 3 pages", n)
	}
	if p, err := c.ResolveModel(context.Background(), "acme/big"); err != nil || !strings.HasSuffix(p, "e-Q4_K_M.gguf") {
		t.Errorf("ResolveModel over pages = %s, %v", p, err)
	}
}
