package hub

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lmeval/lmeval/hub/hubtest"
)

func randomBytes(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

func newClient(t *testing.T, srv *hubtest.Server, opts Options) *Client {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	opts.Endpoint = srv.URL
	c := New(opts)
	c.retryDelay = time.Millisecond
	return c
}

func TestDownloadLayout(t *testing.T) {
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	srv := hubtest.New(t)
	lfs := randomBytes(10000, 1)
	srv.AddFile("model", "acme/tiny", "", "tiny-Q8_0.gguf", lfs)
	srv.AddFile("model", "acme/tiny", "", "README.md", []byte("# tiny\n"))
	c := newClient(t, srv, Options{})
	ctx := context.Background()
	repo := Repo{Model, "acme/tiny"}
	commit := srv.Commit("model", "acme/tiny", "main")

	for _, tc := range []struct {
		file string
		want []byte
		etag string
	}{
		{"tiny-Q8_0.gguf", lfs, fmt.Sprintf("%x", sha256.Sum256(lfs))},
		{"README.md", []byte("# tiny\n"), "8e2e871357bef652084a73f7173adc5eb8859a33"},
	} {
		p, err := c.Download(ctx, repo, "", tc.file)
		if err != nil {
			t.Fatalf("Download %s: %v", tc.file, err)
		}
		wantPath := filepath.Join(c.CacheDir(), "models--acme--tiny", "snapshots", commit, tc.file)
		if p != wantPath {
			t.Errorf("path = %s, want %s", p, wantPath)
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: content differs (err %v)", tc.file, err)
		}
		target, err := os.Readlink(p)
		if err != nil {
			t.Fatalf("snapshot entry is not a link: %v", err)
		}
		if !strings.HasPrefix(target, "../../blobs/") {
			t.Errorf("link target %s, want ../../blobs/<etag>", target)
		}
		if tc.file == "tiny-Q8_0.gguf" && filepath.Base(target) != tc.etag {
			t.Errorf("LFS blob named %s, want its sha256 %s", filepath.Base(target), tc.etag)
		}
	}
	ref, err := os.ReadFile(filepath.Join(c.CacheDir(), "models--acme--tiny", "refs", "main"))
	if err != nil || string(ref) != commit {
		t.Errorf("refs/main = %q (%v), want %s", ref, err, commit)
	}
	// A second download asks the Hub (HEAD) but fetches no bytes.
	gets := srv.Count("GET", "/cdn/")
	if _, err := c.Download(ctx, repo, "main", "tiny-Q8_0.gguf"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count("GET", "/cdn/"); n != gets {
		t.Errorf("cached file fetched again: %d CDN GETs, want %d", n, gets)
	}
}

func TestVerify(t *testing.T) {
	// Expected ids computed independently: printf '# tiny\n' | git hash-object --stdin,
	// and printf '# tiny\n' | sha256sum.
	name := filepath.Join(t.TempDir(), "f")
	os.WriteFile(name, []byte("# tiny\n"), 0o644)
	tests := []struct {
		etag string
		size int64
		ok   bool
	}{
		{"8e2e871357bef652084a73f7173adc5eb8859a33", 7, true},
		{"8e2e871357bef652084a73f7173adc5eb8859a34", 7, false},
		{"%s", 7, true},
		{"%s", 8, false},
		{"not-a-hash", 7, true},
	}
	for _, tc := range tests {
		etag := tc.etag
		if etag == "%s" {
			etag = "da0f266deed7c2c66f4708aa801d1ecd4aa289d2ee87e9c4525b30c8cba9ac88"
		}
		err := verify(name, &fileMeta{etag: etag, size: tc.size})
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrChecksum) {
			t.Errorf("verify(etag %s, size %d) = %v, want ok=%v", etag, tc.size, err, tc.ok)
		}
	}
}

func TestResumeWithinOneCall(t *testing.T) {
	srv := hubtest.New(t)
	data := randomBytes(100000, 2)
	srv.AddFile("model", "acme/m", "", "m.gguf", data)
	srv.CutNext("model", "acme/m", "", "m.gguf", 1)
	c := newClient(t, srv, Options{})
	p, err := c.Download(context.Background(), Repo{Model, "acme/m"}, "", "m.gguf")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, data) {
		t.Fatal("resumed file differs from the original")
	}
	var ranges []string
	for _, r := range srv.Requests() {
		if r.Method == "GET" && strings.HasPrefix(r.Path, "/cdn/") {
			ranges = append(ranges, r.Range)
		}
	}
	want := []string{"", fmt.Sprintf("bytes=%d-", len(data)/2)}
	if !reflect.DeepEqual(ranges, want) {
		t.Errorf("CDN requests' Range headers = %q, want %q", ranges, want)
	}
}

func TestResumeAcrossCalls(t *testing.T) {
	srv := hubtest.New(t)
	data := randomBytes(80000, 3)
	srv.AddFile("model", "acme/m", "", "m.gguf", data)
	// Every attempt of the first call is cut: it fails, leaving the part.
	srv.CutNext("model", "acme/m", "", "m.gguf", maxAttempts)
	cache := t.TempDir()
	c := newClient(t, srv, Options{CacheDir: cache})
	ctx := context.Background()
	if _, err := c.Download(ctx, Repo{Model, "acme/m"}, "", "m.gguf"); err == nil {
		t.Fatal("download succeeded though every attempt was cut")
	}
	sum := sha256.Sum256(data)
	part := filepath.Join(cache, "models--acme--m", "blobs", hex.EncodeToString(sum[:])+".incomplete")
	fi, err := os.Stat(part)
	if err != nil {
		t.Fatalf("partial download not kept: %v", err)
	}
	// Each cut attempt got half of what remained.
	want := int64(len(data))
	for i := 0; i < maxAttempts; i++ {
		want -= want / 2
	}
	if got := int64(len(data)) - fi.Size(); got != want {
		t.Errorf("bytes left after cut attempts = %d, want %d", got, want)
	}
	// A new client (a later run) resumes from the partial file.
	c2 := newClient(t, srv, Options{CacheDir: cache})
	p, err := c2.Download(ctx, Repo{Model, "acme/m"}, "", "m.gguf")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, data) {
		t.Fatal("resumed file differs from the original")
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if wantRange := fmt.Sprintf("bytes=%d-", fi.Size()); last.Range != wantRange {
		t.Errorf("resuming request Range = %q, want %q", last.Range, wantRange)
	}
	if _, err := os.Stat(part); !os.IsNotExist(err) {
		t.Errorf("partial file left behind: %v", err)
	}
}

func TestChecksumMismatch(t *testing.T) {
	srv := hubtest.New(t)
	for _, name := range []string{"m.gguf", "config.json"} {
		srv.AddFile("model", "acme/m", "", name, randomBytes(5000, 4))
		srv.Corrupt("model", "acme/m", "", name, true)
	}
	cache := t.TempDir()
	c := newClient(t, srv, Options{CacheDir: cache})
	for _, name := range []string{"m.gguf", "config.json"} {
		_, err := c.Download(context.Background(), Repo{Model, "acme/m"}, "", name)
		if !errors.Is(err, ErrChecksum) {
			t.Errorf("%s: err = %v, want ErrChecksum", name, err)
		}
	}
	blobs, _ := os.ReadDir(filepath.Join(cache, "models--acme--m", "blobs"))
	if len(blobs) != 0 {
		t.Errorf("corrupt download left %d files in blobs/", len(blobs))
	}
}

func TestGatedAndNotFound(t *testing.T) {
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	srv := hubtest.New(t)
	srv.AddFile("dataset", "acme/secret", "", "data.csv", []byte("a,b\n1,2\n"))
	srv.SetGated("dataset", "acme/secret")
	srv.AddFile("dataset", "acme/open", "", "data.csv", []byte("a\n1\n"))
	ctx := context.Background()
	tests := []struct {
		name  string
		token string
		repo  string
		file  string
		want  error
	}{
		{"gated without token", "", "acme/secret", "data.csv", ErrGated},
		{"gated with a wrong token", "hf_wrong", "acme/secret", "data.csv", ErrGated},
		{"gated with the token", hubtest.Token, "acme/secret", "data.csv", nil},
		{"missing repo", "", "acme/nothing", "data.csv", ErrNotFound},
		{"missing file", "", "acme/open", "nothing.csv", ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, srv, Options{Token: tc.token})
			_, err := c.Download(ctx, Repo{Dataset, tc.repo}, "", tc.file)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if tc.want != nil && err != nil && !strings.Contains(err.Error(), tc.repo) {
				t.Errorf("error %q does not name the repository", err)
			}
		})
	}
	if n := srv.Count("HEAD", "/datasets/acme/secret/resolve/"); n != 3 {
		t.Errorf("%d HEADs on the gated file, want 3", n)
	}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Path, "/cdn/") && r.Auth != "" {
			t.Errorf("token sent to the CDN: %s", r.Path)
		}
	}
}

func TestOffline(t *testing.T) {
	srv := hubtest.New(t)
	srv.AddFile("model", "acme/m", "", "m.gguf", randomBytes(3000, 5))
	cache := t.TempDir()
	ctx := context.Background()
	online := newClient(t, srv, Options{CacheDir: cache})
	want, err := online.Download(ctx, Repo{Model, "acme/m"}, "", "m.gguf")
	if err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	t.Setenv("HF_HUB_OFFLINE", "1")
	off := newClient(t, srv, Options{CacheDir: cache})
	if !off.Offline() {
		t.Fatal("HF_HUB_OFFLINE=1 did not make the client offline")
	}
	got, err := off.Download(ctx, Repo{Model, "acme/m"}, "", "m.gguf")
	if err != nil || got != want {
		t.Errorf("offline Download = %s, %v; want %s", got, err, want)
	}
	_, err = off.Download(ctx, Repo{Model, "acme/m"}, "", "other.gguf")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), "other.gguf") {
		t.Errorf("missing file offline: err = %v, want ErrOffline naming other.gguf", err)
	}
	_, err = off.Download(ctx, Repo{Model, "acme/never"}, "", "m.gguf")
	if !errors.Is(err, ErrOffline) {
		t.Errorf("never-fetched repo offline: err = %v, want ErrOffline", err)
	}
	if n := len(srv.Requests()); n != before {
		t.Errorf("offline client made %d requests", n-before)
	}
}

func TestParquetConversion(t *testing.T) {
	srv := hubtest.New(t)
	shards := [][]byte{randomBytes(2000, 6), randomBytes(1500, 7)}
	srv.AddParquet("Rowan/hellaswag", "default", "validation", shards...)
	srv.AddParquet("Rowan/hellaswag", "default", "train", randomBytes(100, 8))
	srv.AddFile("dataset", "Rowan/hellaswag", "", "hellaswag.py", []byte("# script\n"))
	srv.AddAlias("hellaswag", "Rowan/hellaswag")
	cache := t.TempDir()
	ctx := context.Background()
	c := newClient(t, srv, Options{CacheDir: cache})

	for _, name := range []string{"Rowan/hellaswag", "hellaswag"} {
		splits, err := c.ParquetSplits(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string][]string{"default": {"train", "validation"}}; !reflect.DeepEqual(splits, want) {
			t.Errorf("%s: ParquetSplits = %v, want %v", name, splits, want)
		}
		paths, err := c.DownloadParquet(ctx, name, "default", "validation")
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 2 {
			t.Fatalf("%d paths, want 2", len(paths))
		}
		commit := srv.Commit("dataset", "Rowan/hellaswag", "refs/convert/parquet")
		for i, p := range paths {
			want := filepath.Join(cache, "datasets--"+strings.ReplaceAll(name, "/", "--"), "snapshots", commit, "default", "validation", fmt.Sprintf("%04d.parquet", i))
			if p != want {
				t.Errorf("path %d = %s, want %s", i, p, want)
			}
			if b, _ := os.ReadFile(p); !bytes.Equal(b, shards[i]) {
				t.Errorf("shard %d differs", i)
			}
		}
		ref, _ := os.ReadFile(filepath.Join(cache, "datasets--"+strings.ReplaceAll(name, "/", "--"), "refs", "refs", "convert", "parquet"))
		if string(ref) != commit {
			t.Errorf("refs/refs/convert/parquet = %q, want %s", ref, commit)
		}
	}

	off := newClient(t, srv, Options{CacheDir: cache, Offline: true})
	paths, err := off.DownloadParquet(ctx, "hellaswag", "default", "validation")
	if err != nil || len(paths) != 2 {
		t.Fatalf("offline DownloadParquet = %v, %v", paths, err)
	}
	splits, err := off.ParquetSplits(ctx, "hellaswag")
	if want := map[string][]string{"default": {"validation"}}; err != nil || !reflect.DeepEqual(splits, want) {
		t.Errorf("offline ParquetSplits = %v, %v; want %v (only what was downloaded)", splits, err, want)
	}
	_, err = off.DownloadParquet(ctx, "hellaswag", "default", "train")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), `split "train"`) {
		t.Errorf("uncached split offline: %v", err)
	}
	os.Remove(paths[1])
	_, err = off.DownloadParquet(ctx, "hellaswag", "default", "validation")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), paths[1]) {
		t.Errorf("offline with a shard missing: err = %v, want ErrOffline listing %s", err, paths[1])
	}
	_, err = c.DownloadParquet(ctx, "Rowan/hellaswag", "default", "test")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("missing split: err = %v, want ErrNotFound", err)
	}
}

func TestConcurrentDownloads(t *testing.T) {
	srv := hubtest.New(t)
	data := randomBytes(50000, 9)
	srv.AddFile("model", "acme/m", "", "m.gguf", data)
	srv.SetDelay(100 * time.Millisecond)
	cache := t.TempDir()
	var wg sync.WaitGroup
	paths := make([]string, 6)
	errs := make([]error, 6)
	for i := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(t, srv, Options{CacheDir: cache})
			paths[i], errs[i] = c.Download(context.Background(), Repo{Model, "acme/m"}, "", "m.gguf")
		}()
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			t.Fatalf("download %d: %v", i, errs[i])
		}
		if b, _ := os.ReadFile(paths[i]); !bytes.Equal(b, data) {
			t.Errorf("download %d: content differs", i)
		}
	}
	if n := srv.Count("GET", "/cdn/"); n != 1 {
		t.Errorf("%d GETs of the file, want 1 (the others wait on the lock and reuse it)", n)
	}
}

// TestHelperProcess is not a test: TestTwoProcesses runs the test binary
// again with it to download from another process.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("LMEVAL_HUB_HELPER") != "1" {
		t.Skip("helper for TestTwoProcesses")
	}
	c := New(Options{Endpoint: os.Getenv("LMEVAL_HUB_ENDPOINT"), CacheDir: os.Getenv("LMEVAL_HUB_CACHE")})
	p, err := c.Download(context.Background(), Repo{Model, "acme/m"}, "", "m.gguf")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("PATH=" + p)
}

func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	srv := hubtest.New(t)
	data := randomBytes(60000, 10)
	srv.AddFile("model", "acme/m", "", "m.gguf", data)
	srv.SetDelay(300 * time.Millisecond)
	cache := t.TempDir()
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	errs := make([]error, 2)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
			cmd.Env = append(os.Environ(), "LMEVAL_HUB_HELPER=1", "LMEVAL_HUB_ENDPOINT="+srv.URL, "LMEVAL_HUB_CACHE="+cache, "HF_HUB_OFFLINE=")
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range outs {
		if errs[i] != nil || !bytes.Contains(outs[i], []byte("PATH=")) {
			t.Fatalf("process %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	if n := srv.Count("GET", "/cdn/"); n != 1 {
		t.Errorf("%d GETs of the file by two processes, want 1", n)
	}
	p, _ := New(Options{Endpoint: srv.URL, CacheDir: cache, Offline: true}).CachedFile(Repo{Model, "acme/m"}, "main", "m.gguf")
	if b, _ := os.ReadFile(p); !bytes.Equal(b, data) {
		t.Error("file differs after concurrent downloads by two processes")
	}
}

func TestProgress(t *testing.T) {
	srv := hubtest.New(t)
	srv.AddFile("model", "acme/m", "", "m.gguf", randomBytes(40000, 11))
	var buf bytes.Buffer
	c := newClient(t, srv, Options{Progress: &buf})
	if _, err := c.Download(context.Background(), Repo{Model, "acme/m"}, "", "m.gguf"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "m.gguf") || !strings.Contains(buf.String(), "100%") {
		t.Errorf("progress output %q lacks the file name or 100%%", buf.String())
	}
}

func TestUnreachableHubUsesCache(t *testing.T) {
	srv := hubtest.New(t)
	srv.AddParquet("acme/d", "default", "test", randomBytes(300, 30))
	srv.AddFile("dataset", "acme/d", "", "a.jsonl", []byte("{}\n"))
	cache := t.TempDir()
	ctx := context.Background()
	c := newClient(t, srv, Options{CacheDir: cache})
	want, err := c.DownloadParquet(ctx, "acme/d", "default", "test")
	if err != nil {
		t.Fatal(err)
	}
	wantFile, err := c.Download(ctx, Repo{Dataset, "acme/d"}, "", "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Info(ctx, Repo{Dataset, "acme/d"}, ""); err != nil {
		t.Fatal(err)
	}
	srv.Close() // the Hub goes away; the client is still online
	got, err := c.DownloadParquet(ctx, "acme/d", "default", "test")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DownloadParquet with the Hub down = %v, %v; want the cached %v", got, err, want)
	}
	if splits, err := c.ParquetSplits(ctx, "acme/d"); err != nil || !reflect.DeepEqual(splits, map[string][]string{"default": {"test"}}) {
		t.Errorf("ParquetSplits with the Hub down = %v, %v", splits, err)
	}
	if p, err := c.Download(ctx, Repo{Dataset, "acme/d"}, "", "a.jsonl"); err != nil || p != wantFile {
		t.Errorf("Download with the Hub down = %s, %v; want %s", p, err, wantFile)
	}
	if info, err := c.Info(ctx, Repo{Dataset, "acme/d"}, ""); err != nil || !reflect.DeepEqual(info.Files(), []string{"a.jsonl"}) {
		t.Errorf("Info with the Hub down = %v, %v", info, err)
	}
	if _, err := c.Download(ctx, Repo{Dataset, "acme/d"}, "", "never.jsonl"); err == nil || errors.Is(err, ErrOffline) {
		t.Errorf("uncached file with the Hub down: err = %v, want the connection error", err)
	}
}
