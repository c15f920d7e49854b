package tasktree

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lmeval/lmeval/hub"
)

// fakeTree is a small lm-eval tree: lm_eval/tasks files, plus files
// outside it that must not be unpacked.
var fakeTree = map[string]string{
	"lm_eval/tasks/demo/demo.yaml":  "task: demo\ndataset_path: json\noutput_type: generate_until\n",
	"lm_eval/tasks/demo/utils.py":   "def f(doc):\n    return doc\n",
	"lm_eval/tasks/README.md":       "# tasks\n",
	"lm_eval/tasks/a-b/x.yaml":      "task: ab\n",
	"lm_eval/tasks/a/b.yaml":        "task: a_b\n",
	"lm_eval/__init__.py":           "",
	"README.md":                     "lm-eval\n",
	"tests/testdata/something.yaml": "task: not_a_task_of_the_tree\n",
}

// wantPin computes the digest of fakeTree's lm_eval/tasks by hand, as
// Digest documents it.
func wantPin() Pin {
	var lines []string
	var total int64
	for p, c := range fakeTree {
		rel, ok := strings.CutPrefix(p, "lm_eval/tasks/")
		if !ok {
			continue
		}
		s := sha256.Sum256([]byte(c))
		lines = append(lines, rel+"\x00"+fmt.Sprintf("%s %d %s\n", hex.EncodeToString(s[:]), len(c), rel))
		total += int64(len(c))
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		_, line, _ := strings.Cut(l, "\x00")
		h.Write([]byte(line))
	}
	return Pin{Files: len(lines), Bytes: total, SHA256: hex.EncodeToString(h.Sum(nil))}
}

func archiveOf(t *testing.T, top string, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	// GitHub's archives start with a pax global header holding the commit.
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": "0123"}})
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/", Mode: 0o775})
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := files[n]
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: top + "/" + n, Mode: 0o664, Size: int64(len(c))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(c))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// server serves archives under paths, with Range support, cutting the
// first `cuts` GETs in the middle.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	cuts     int
	requests []string // "METHOD path range"
}

func newServer(t *testing.T) *server {
	s := &server{files: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path+" "+r.Header.Get("Range"))
		data, ok := s.files[r.URL.Path]
		cut := r.Method == http.MethodGet && s.cuts > 0
		if cut {
			s.cuts--
		}
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !cut {
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
			return
		}
		start := 0
		if rg := r.Header.Get("Range"); rg != "" {
			fmt.Sscanf(rg, "bytes=%d-", &start)
		}
		body := data[start:]
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if start > 0 {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(data)-1, len(data)))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.WriteHeader(http.StatusOK)
		}
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

const commit = "4e7e0d47f33bc71070c1d38394bafbb52b117163"

// setup serves fakeTree as repo/archive/<commit>.tar.gz and returns a
// Source for it pinned to the hand-computed digest.
func setup(t *testing.T) (*server, *Source, Options) {
	t.Setenv("HF_HUB_OFFLINE", "")
	s := newServer(t)
	s.files["/EleutherAI/lm-evaluation-harness/archive/"+commit+".tar.gz"] = archiveOf(t, "lm-evaluation-harness-"+commit, fakeTree)
	src, err := Parse(s.URL + "/EleutherAI/lm-evaluation-harness@" + commit)
	if err != nil {
		t.Fatal(err)
	}
	p := wantPin()
	src.Pin = &p
	return s, src, Options{CacheDir: t.TempDir()}
}

func TestFetch(t *testing.T) {
	s, src, opts := setup(t)
	if _, ok, err := src.Local(opts); ok || err != nil {
		t.Fatalf("Local before download: ok=%v err=%v", ok, err)
	}
	tree, err := src.Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Verified || tree.Digest == nil || *tree.Digest != wantPin() {
		t.Errorf("tree %+v, want verified with digest %+v", tree, wantPin())
	}
	for p, c := range fakeTree {
		rel, ok := strings.CutPrefix(p, "lm_eval/tasks/")
		b, err := os.ReadFile(filepath.Join(tree.Dir, filepath.FromSlash(rel)))
		if ok && (err != nil || string(b) != c) {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	if left := leftovers(t, opts.CacheDir); len(left) != 1 || left[0] != "url-"+shortHash(src.URL) {
		t.Errorf("cache holds %v, want only the tree (archive and staging removed)", left)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(tree.Dir), "..", "README.md")); err == nil {
		t.Error("a file outside lm_eval/tasks was unpacked")
	}
	// From now on the tree is used without the network.
	n := len(s.log())
	t.Setenv("HF_HUB_OFFLINE", "1")
	again, err := src.Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Dir != tree.Dir || len(s.log()) != n {
		t.Errorf("second fetch: dir %s (want %s), %d new requests", again.Dir, tree.Dir, len(s.log())-n)
	}
}

// leftovers lists the cache's top-level entries and the files in its
// .downloads folder other than lock files.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if e.Name() != ".downloads" {
			out = append(out, e.Name())
		}
	}
	ds, _ := os.ReadDir(filepath.Join(dir, ".downloads"))
	for _, e := range ds {
		if !strings.HasSuffix(e.Name(), ".lock") {
			out = append(out, ".downloads/"+e.Name())
		}
	}
	return out
}

func TestChecksumRefusal(t *testing.T) {
	s, src, opts := setup(t)
	bad := *src.Pin
	bad.SHA256 = strings.Repeat("0", 64)
	src.Pin = &bad
	_, err := src.Fetch(context.Background(), opts)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("got %v, want ErrMismatch", err)
	}
	if left := leftovers(t, opts.CacheDir); len(left) != 0 {
		t.Errorf("a refused download left %v", left)
	}
	if _, ok, _ := src.Local(opts); ok {
		t.Error("a refused tree is available")
	}
	// Corrupted bytes: not even a gzip stream.
	for p, b := range s.files {
		c := append([]byte(nil), b...)
		c[len(c)/2] ^= 0xff
		s.files[p] = c
	}
	src.Pin = &Pin{}
	*src.Pin = wantPin()
	if _, err := src.Fetch(context.Background(), opts); err == nil {
		t.Error("a corrupted archive was accepted")
	}
	if left := leftovers(t, opts.CacheDir); len(left) != 0 {
		t.Errorf("a corrupted download left %v", left)
	}
}

func TestResume(t *testing.T) {
	s, src, opts := setup(t)
	// The connection drops in the middle of the first GET: the retry asks
	// for the rest only.
	s.cuts = 1
	if _, err := src.Fetch(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	ranged := false
	for _, r := range s.log() {
		if strings.HasPrefix(r, "GET ") && strings.Contains(r, "bytes=") {
			ranged = true
		}
	}
	if !ranged {
		t.Errorf("no Range request after the cut: %v", s.log())
	}
}

// A partial download left by an earlier process is resumed, not
// restarted.
func TestResumeAcrossProcesses(t *testing.T) {
	s, src, opts := setup(t)
	data := s.files["/EleutherAI/lm-evaluation-harness/archive/"+commit+".tar.gz"]
	partial := filepath.Join(opts.CacheDir, ".downloads", src.key()+".tar.gz.incomplete")
	os.MkdirAll(filepath.Dir(partial), 0o755)
	if err := os.WriteFile(partial, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Fetch(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("bytes=%d-", len(data)/3)
	log := s.log()
	if len(log) == 0 || !strings.HasSuffix(log[0], want) {
		t.Errorf("requests %v, want the first to ask for %s", log, want)
	}
}

func TestOffline(t *testing.T) {
	s, src, opts := setup(t)
	t.Setenv("HF_HUB_OFFLINE", "1")
	_, err := src.Fetch(context.Background(), opts)
	if !errors.Is(err, hub.ErrOffline) {
		t.Fatalf("got %v, want ErrOffline", err)
	}
	if n := len(s.log()); n != 0 {
		t.Errorf("%d requests in offline mode", n)
	}
	opts.Offline = true
	t.Setenv("HF_HUB_OFFLINE", "")
	if _, err := src.Fetch(context.Background(), opts); !errors.Is(err, hub.ErrOffline) {
		t.Errorf("Options.Offline: got %v, want ErrOffline", err)
	}
}

func TestUnpackRefusesEscapes(t *testing.T) {
	for _, name := range []string{"lm_eval/tasks/../../evil", "lm_eval/tasks/a/../../../evil"} {
		dir := t.TempDir()
		arch := filepath.Join(dir, "a.tar.gz")
		os.WriteFile(arch, archiveOf(t, "top", map[string]string{name: "x"}), 0o644)
		if _, err := unpack(arch, filepath.Join(dir, "out")); err == nil {
			t.Errorf("%s: unpacked", name)
		}
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "checkout", "lm_eval", "tasks"), 0o755)
	os.MkdirAll(filepath.Join(dir, "site", "lm_eval", "tasks"), 0o755)
	os.WriteFile(filepath.Join(dir, "site", "lm_eval", "tasks", "__init__.py"), nil, 0o644)
	os.MkdirAll(filepath.Join(dir, "plain"), 0o755)
	cases := []struct {
		spec            string
		dir, url, commt string
		pinned          bool
	}{
		{"", "", DefaultRepo + "/archive/" + PinnedCommit + ".tar.gz", PinnedCommit, true},
		{"@abc123", "", DefaultRepo + "/archive/abc123.tar.gz", "abc123", false},
		{"@" + PinnedCommit, "", DefaultRepo + "/archive/" + PinnedCommit + ".tar.gz", PinnedCommit, true},
		{DefaultRepo + ".git@" + PinnedCommit, "", DefaultRepo + "/archive/" + PinnedCommit + ".tar.gz", PinnedCommit, true},
		{"https://github.com/me/fork@v0.4.9", "", "https://github.com/me/fork/archive/v0.4.9.tar.gz", "v0.4.9", false},
		{"https://mirror.example/lm-eval@" + PinnedCommit, "", "https://mirror.example/lm-eval/archive/" + PinnedCommit + ".tar.gz", PinnedCommit, true},
		{"https://example.com/x/tree.tar.gz", "", "https://example.com/x/tree.tar.gz", "", false},
		{filepath.Join(dir, "checkout"), filepath.Join(dir, "checkout", "lm_eval", "tasks"), "", "", false},
		{filepath.Join(dir, "site", "lm_eval"), filepath.Join(dir, "site", "lm_eval", "tasks"), "", "", false},
		{filepath.Join(dir, "plain"), filepath.Join(dir, "plain"), "", "", false},
	}
	for _, c := range cases {
		s, err := Parse(c.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.spec, err)
			continue
		}
		if s.Dir != c.dir || s.URL != c.url || s.Commit != c.commt || (s.Pin != nil) != c.pinned {
			t.Errorf("Parse(%q) = %+v", c.spec, s)
		}
	}
	for _, bad := range []string{"https://github.com/EleutherAI/lm-evaluation-harness", "@", "@a b", filepath.Join(dir, "missing"), "https://x.org/repo@v1/extra"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// The pin is the digest of lm-eval's tree at PinnedCommit (../shared holds
// that commit, unmodified).
func TestPinnedMatchesSharedCheckout(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval")
	b, err := os.ReadFile(filepath.Join(root, "COMMIT"))
	if err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	if got := strings.TrimSpace(string(b)); got != PinnedCommit {
		t.Fatalf("../shared/lm-eval is at %s, PinnedCommit is %s", got, PinnedCommit)
	}
	p, err := Digest(os.DirFS(filepath.Join(root, "lm_eval", "tasks")))
	if err != nil {
		t.Fatal(err)
	}
	if p != Pinned {
		t.Errorf("digest of ../shared/lm-eval/lm_eval/tasks %+v, Pinned %+v (refresh with scripts/tasktree-pin)", p, Pinned)
	}
}

// The real tree at the pinned commit, archived as GitHub lays it out and
// served from a loopback mirror, is accepted as verified against Pinned.
func TestPinnedTreeFromMirror(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval")
	if _, err := os.Stat(filepath.Join(root, "lm_eval", "tasks")); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	files := map[string]string{}
	err := filepath.WalkDir(filepath.Join(root, "lm_eval", "tasks"), func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HF_HUB_OFFLINE", "")
	s := newServer(t)
	s.files["/mirror/lm-evaluation-harness/archive/"+PinnedCommit+".tar.gz"] = archiveOf(t, "lm-evaluation-harness-"+PinnedCommit, files)
	src, err := Parse(s.URL + "/mirror/lm-evaluation-harness@" + PinnedCommit)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := src.Fetch(context.Background(), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Verified || *tree.Digest != Pinned {
		t.Errorf("tree %+v, want verified against %+v", tree, Pinned)
	}
	if _, err := os.Stat(filepath.Join(tree.Dir, "humaneval", "humaneval.yaml")); err != nil {
		t.Error(err)
	}
}
