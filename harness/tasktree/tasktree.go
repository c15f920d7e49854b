// Package tasktree finds lm-eval's task tree (lm_eval/tasks: the YAML and
// Python helpers of every lm-eval task) for the tasks lmeval does not
// build in: a local directory the user names, or lm-eval's source archive
// at a commit, downloaded once into lmeval's cache directory, verified,
// unpacked, and used from then on, offline included.
//
// The default is lm-eval at PinnedCommit, the commit lmeval's native ports
// were checked against. Its download is verified against Pinned, a digest
// of the content of lm_eval/tasks at that commit (see Digest), because
// GitHub does not promise that the bytes of its generated archives stay
// the same; the content does. scripts/tasktree-pin recomputes the pin
// from a checkout or an archive when the commit changes.
package tasktree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/hub"
)

// EnvSource is the environment variable that sets the task tree when
// --tasks_source is not given.
const EnvSource = "LMEVAL_TASKS_SOURCE"

// DefaultRepo is lm-eval's repository.
const DefaultRepo = "https://github.com/EleutherAI/lm-evaluation-harness"

// PinnedCommit is the lm-eval commit the default task tree is downloaded
// at.
const PinnedCommit = "4e7e0d47f33bc71070c1d38394bafbb52b117163"

// Pinned is the digest of lm_eval/tasks at PinnedCommit.
var Pinned = Pin{
	Files:  15375,
	Bytes:  11480636,
	SHA256: "c04a1fd4168e02f2e71da9070ee397d0f2a2a4b5c16b3864083c12bf12eebfae",
}

// Pin identifies a task tree by content: its number of regular files,
// their total size in bytes, and the sha256 of its manifest (see Digest).
type Pin struct {
	Files  int    `json:"files"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// ErrMismatch is wrapped when a downloaded tree does not match its pin.
var ErrMismatch = errors.New("task tree does not match the pinned digest")

// Source is where a task tree comes from: a local directory, or an
// archive URL.
type Source struct {
	// Spec is the source as the user gave it ("" for the default).
	Spec string
	// Dir is a local directory holding task YAML (the tree itself).
	Dir string
	// URL is the archive to download (when Dir is "").
	URL string
	// Repo and Commit name the repository archive, when known.
	Repo, Commit string
	// Pin verifies the download; nil when no pin is known (another
	// commit, another archive), and the tree is used unverified.
	Pin *Pin
}

var commitLike = regexp.MustCompile(`^[0-9A-Za-z._-]+$`)

// Parse reads a --tasks_source value: "" (the default: lm-eval at
// PinnedCommit), a directory (an lm-eval checkout, an installed lm_eval
// package, or an lm_eval/tasks directory itself), an archive URL
// (….tar.gz), REPO_URL@COMMIT (the repository's GitHub archive at
// COMMIT), or @COMMIT (lm-eval's repository at COMMIT).
func Parse(spec string) (*Source, error) {
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "":
		p := Pinned
		return &Source{Repo: DefaultRepo, Commit: PinnedCommit, URL: archiveURL(DefaultRepo, PinnedCommit), Pin: &p}, nil
	case strings.HasPrefix(spec, "@"):
		return repoSource(spec, DefaultRepo, spec[1:])
	case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
		if isArchive(spec) {
			return &Source{Spec: spec, URL: spec}, nil
		}
		i := strings.LastIndex(spec, "@")
		if i < 0 || strings.Contains(spec[i:], "/") {
			return nil, fmt.Errorf("tasks source %q: give an archive URL (.tar.gz) or REPOSITORY_URL@COMMIT", spec)
		}
		return repoSource(spec, spec[:i], spec[i+1:])
	}
	dir, err := treeDir(spec)
	if err != nil {
		return nil, fmt.Errorf("tasks source %q: %w", spec, err)
	}
	return &Source{Spec: spec, Dir: dir}, nil
}

func repoSource(spec, repo, commit string) (*Source, error) {
	repo = strings.TrimSuffix(strings.TrimRight(repo, "/"), ".git")
	if commit == "" || !commitLike.MatchString(commit) {
		return nil, fmt.Errorf("tasks source %q: %q is not a commit", spec, commit)
	}
	s := &Source{Spec: spec, Repo: repo, Commit: commit, URL: archiveURL(repo, commit)}
	// The commit fixes the content, whoever serves it (a mirror, a fork):
	// the pin applies to any repository at PinnedCommit.
	if commit == PinnedCommit {
		p := Pinned
		s.Pin = &p
	}
	return s, nil
}

func archiveURL(repo, commit string) string { return repo + "/archive/" + commit + ".tar.gz" }

func isArchive(u string) bool {
	u, _, _ = strings.Cut(u, "?")
	return strings.HasSuffix(u, ".tar.gz") || strings.HasSuffix(u, ".tgz")
}

// treeDir finds the task tree in a local directory: DIR/lm_eval/tasks (a
// checkout), DIR/tasks (an installed lm_eval package), or DIR itself.
func treeDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("not a directory")
	}
	for _, sub := range []string{filepath.Join("lm_eval", "tasks"), "tasks"} {
		if st, err := os.Stat(filepath.Join(abs, sub)); err == nil && st.IsDir() {
			if _, err := os.Stat(filepath.Join(abs, sub, "__init__.py")); err == nil || sub != "tasks" {
				return filepath.Join(abs, sub), nil
			}
		}
	}
	return abs, nil
}

// Tree is a task tree ready to index.
type Tree struct {
	// Dir is the lm_eval/tasks directory.
	Dir string `json:"dir,omitempty"`
	// Source is the source as given ("" for the default), URL the archive
	// it was downloaded from, Commit the commit when known.
	Source string `json:"source,omitempty"`
	URL    string `json:"url,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Digest is the tree's content digest, for downloaded trees.
	Digest *Pin `json:"digest,omitempty"`
	// Verified says the download matched a pin.
	Verified bool `json:"verified"`
	// Downloaded is when it was downloaded (zero for local directories).
	Downloaded time.Time `json:"downloaded,omitzero"`
}

// Options say where downloads go and how.
type Options struct {
	// CacheDir holds downloaded trees; "" means $LMEVAL_CACHE_DIR/tasks
	// (lmeval's cache directory).
	CacheDir string
	// Offline forbids downloading (also set by HF_HUB_OFFLINE=1, through
	// the hub client).
	Offline bool
	// Progress receives a download progress bar; nil shows none.
	Progress io.Writer
	// HTTPClient makes the requests; nil means the hub client's default.
	HTTPClient *http.Client
}

func (o Options) cacheDir() string {
	if o.CacheDir != "" {
		return o.CacheDir
	}
	return cache.DefaultPath("tasks")
}

// markerName is the file beside lm_eval/ in a downloaded tree that records
// where it came from; it is written last, so a tree without it is
// incomplete.
const markerName = ".lmeval-tree.json"

// Local returns the tree if it is available without the network: a local
// directory, or a download already in the cache. ok is false when it
// must be downloaded.
func (s *Source) Local(opts Options) (t *Tree, ok bool, err error) {
	if s.Dir != "" {
		return &Tree{Dir: s.Dir, Source: s.Spec}, true, nil
	}
	root := filepath.Join(opts.cacheDir(), s.key())
	b, err := os.ReadFile(filepath.Join(root, markerName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	t = &Tree{}
	if err := json.Unmarshal(b, t); err != nil {
		return nil, false, fmt.Errorf("%s: %w (delete %s to download it again)", filepath.Join(root, markerName), err, root)
	}
	t.Dir = filepath.Join(root, "lm_eval", "tasks")
	if s.Pin != nil && (t.Digest == nil || *t.Digest != *s.Pin) {
		return nil, false, fmt.Errorf("cached task tree %s does not match the pinned digest (delete it to download it again): %w", root, ErrMismatch)
	}
	return t, true, nil
}

// key names a download in the cache: the commit for lm-eval's own
// repository, else a hash of the URL.
func (s *Source) key() string {
	if s.Repo == DefaultRepo && s.Commit != "" {
		return s.Commit
	}
	return "url-" + shortHash(s.URL)
}

// Fetch returns the tree, downloading and unpacking it first if needed.
func (s *Source) Fetch(ctx context.Context, opts Options) (*Tree, error) {
	if t, ok, err := s.Local(opts); err != nil || ok {
		return t, err
	}
	if s.Dir != "" {
		return nil, fmt.Errorf("tasks source %s: not found", s.Dir)
	}
	cacheRoot := opts.cacheDir()
	root := filepath.Join(cacheRoot, s.key())
	client := hub.New(hub.Options{Offline: opts.Offline, Progress: opts.Progress, HTTPClient: opts.HTTPClient})
	if client.Offline() {
		return nil, fmt.Errorf("lm-eval's task tree (%s) is not in the cache %s: %w; run once online, or give --tasks_source DIR", s.URL, cacheRoot, hub.ErrOffline)
	}
	// The archive goes into .downloads (with the download's lock file) and
	// is deleted once unpacked; an interrupted download stays there as
	// .incomplete for the next attempt to resume.
	archive := filepath.Join(cacheRoot, ".downloads", s.key()+".tar.gz")
	size := "size unknown: no pinned digest"
	if s.Pin != nil {
		size = fmt.Sprintf("%d files, %.1f MB unpacked", s.Pin.Files, float64(s.Pin.Bytes)/1e6)
	}
	slog.Info("downloading lm-eval's task tree, once: later runs use the cache; --tasks_source none or HF_HUB_OFFLINE=1 forbids this",
		"size", size, "url", s.URL, "cache", root)
	if err := client.DownloadFile(ctx, s.URL, archive, -1, ""); err != nil {
		return nil, fmt.Errorf("downloading lm-eval's task tree: %w", err)
	}
	stage, err := os.MkdirTemp(cacheRoot, s.key()+".unpack-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	digest, err := unpack(archive, stage)
	if err != nil {
		os.Remove(archive)
		return nil, fmt.Errorf("unpacking %s (from %s; deleted): %w", archive, s.URL, err)
	}
	t := &Tree{Source: s.Spec, URL: s.URL, Commit: s.Commit, Digest: &digest, Downloaded: time.Now().UTC()}
	if s.Pin != nil {
		if digest != *s.Pin {
			os.Remove(archive)
			return nil, fmt.Errorf("%s: lm_eval/tasks has %d files, %d bytes, digest %s; pinned: %d files, %d bytes, %s: %w (refused; the download is deleted)",
				s.URL, digest.Files, digest.Bytes, digest.SHA256, s.Pin.Files, s.Pin.Bytes, s.Pin.SHA256, ErrMismatch)
		}
		t.Verified = true
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(stage, markerName), b, 0o644); err != nil {
		return nil, err
	}
	// Another process may have finished the same tree meanwhile.
	if t, ok, err := s.Local(opts); err != nil || ok {
		return t, err
	}
	if err := os.Chmod(stage, 0o755); err != nil { // MkdirTemp made it 0700
		return nil, err
	}
	os.RemoveAll(root) // an incomplete earlier attempt
	if err := os.Rename(stage, root); err != nil {
		if t, ok, lerr := s.Local(opts); lerr == nil && ok {
			return t, nil
		}
		return nil, err
	}
	os.Remove(archive)
	t.Dir = filepath.Join(root, "lm_eval", "tasks")
	return t, nil
}
