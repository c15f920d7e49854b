package hub

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// maxAttempts bounds how often one download is tried, each retry resuming
// where the previous attempt stopped.
const maxAttempts = 4

var commitRe = regexp.MustCompile(`^[0-9a-f]{40}$`)

// IsCommit reports whether rev is a full commit hash.
func IsCommit(rev string) bool { return commitRe.MatchString(rev) }

// Download fetches one file of repo at revision ("" means main) into the
// cache, unless it is there already, and returns the path of its snapshot
// entry (snapshots/<commit>/<filename>, a link to blobs/<etag>).
func (c *Client) Download(ctx context.Context, repo Repo, revision, filename string) (string, error) {
	if revision == "" {
		revision = "main"
	}
	p, err := c.download(ctx, repo, c.fileURL(repo, revision, filename), revision, filename)
	if err != nil {
		return "", fmt.Errorf("%s: %s@%s: %w", repo, filename, revision, err)
	}
	return p, nil
}

// download fetches the file behind a Hub URL. revision and filename may be
// empty when u is an API URL that redirects to the resolve URL naming them.
func (c *Client) download(ctx context.Context, repo Repo, u, revision, filename string) (string, error) {
	if c.offline {
		return c.CachedFile(repo, revision, filename)
	}
	meta, err := c.fileMetadata(ctx, u)
	if err != nil {
		if revision != "" && isNetworkError(err) {
			// The Hub is unreachable: a cached copy is as good as huggingface_hub
			// would use.
			if p, cerr := c.CachedFile(repo, revision, filename); cerr == nil {
				return p, nil
			}
		}
		return "", err
	}
	if revision == "" || filename == "" {
		if revision, filename, err = parseResolveURL(meta.resolveURL); err != nil {
			return "", err
		}
	}
	if !IsCommit(meta.commit) {
		return "", fmt.Errorf("the Hub gave no commit (X-Repo-Commit) for %s", u)
	}
	if meta.etag == "" || strings.ContainsAny(meta.etag, `/\`) || meta.etag == "." || meta.etag == ".." {
		return "", fmt.Errorf("the Hub gave no usable ETag for %s", u)
	}
	if err := checkRelPath(filename); err != nil {
		return "", err
	}
	dir := c.RepoDir(repo)
	if revision != meta.commit {
		if err := writeRef(dir, revision, meta.commit); err != nil {
			return "", err
		}
	}
	pointer := filepath.Join(dir, "snapshots", meta.commit, filepath.FromSlash(filename))
	if _, err := os.Stat(pointer); err == nil {
		return c.used(pointer), nil
	}
	blob := filepath.Join(dir, "blobs", meta.etag)
	if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
		return "", err
	}
	unlock, err := lockFile(ctx, filepath.Join(c.cacheDir, ".locks", repo.folderName(), meta.etag+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	// Another process may have finished the blob while we waited for the lock.
	if _, err := os.Stat(blob); err != nil {
		if err := c.fetchBlob(ctx, meta, blob, path.Base(filename)); err != nil {
			return "", err
		}
	}
	if err := linkBlob(blob, pointer); err != nil {
		return "", err
	}
	return c.used(pointer), nil
}

// CachedFile is the cached snapshot path of filename at revision, or an
// error wrapping ErrOffline that names what is missing.
func (c *Client) CachedFile(repo Repo, revision, filename string) (string, error) {
	if revision == "" {
		revision = "main"
	}
	commit, err := c.CachedCommit(repo, revision)
	if err != nil {
		return "", err
	}
	p := filepath.Join(c.RepoDir(repo), "snapshots", commit, filepath.FromSlash(filename))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s: %s at revision %s (%s): %w", repo, filename, revision, p, ErrOffline)
	}
	return c.used(p), nil
}

// CachedCommit is the commit a revision pointed to when last seen online.
func (c *Client) CachedCommit(repo Repo, revision string) (string, error) {
	if IsCommit(revision) {
		return revision, nil
	}
	ref := filepath.Join(c.RepoDir(repo), "refs", filepath.FromSlash(revision))
	b, err := os.ReadFile(ref)
	if err != nil {
		return "", fmt.Errorf("%s: revision %s was never fetched (no %s): %w", repo, revision, ref, ErrOffline)
	}
	commit := strings.TrimSpace(string(b))
	if !IsCommit(commit) {
		return "", fmt.Errorf("%s: corrupt ref file %s", repo, ref)
	}
	return commit, nil
}

// checkRelPath refuses repo paths that would escape the snapshot directory.
func checkRelPath(p string) error {
	if p == "" || path.IsAbs(p) || strings.Contains(p, `\`) {
		return fmt.Errorf("invalid file path in repository: %q", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return fmt.Errorf("invalid file path in repository: %q", p)
		}
	}
	return nil
}

func writeRef(repoDir, revision, commit string) error {
	if err := checkRelPath(revision); err != nil {
		return fmt.Errorf("invalid revision %q", revision)
	}
	ref := filepath.Join(repoDir, "refs", filepath.FromSlash(revision))
	if b, err := os.ReadFile(ref); err == nil && strings.TrimSpace(string(b)) == commit {
		return nil
	}
	return writeFileAtomic(ref, []byte(commit))
}

// writeFileAtomic writes data to a temporary file beside name and renames it
// into place, so readers see the old or the new content, never a mix.
func writeFileAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// linkBlob makes pointer a relative symlink to blob, atomically; where
// symlinks are not available it copies the blob instead.
func linkBlob(blob, pointer string) error {
	if err := os.MkdirAll(filepath.Dir(pointer), 0o755); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(pointer), blob)
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp-%d-%d", pointer, os.Getpid(), time.Now().UnixNano())
	if err := os.Symlink(rel, tmp); err == nil {
		if err := os.Rename(tmp, pointer); err != nil {
			os.Remove(tmp)
			return err
		}
		return nil
	}
	data, err := os.ReadFile(blob)
	if err != nil {
		return err
	}
	return writeFileAtomic(pointer, data)
}

// fetchBlob downloads meta's file into blob via blob+".incomplete", resuming
// a partial download left by an earlier attempt or process, and verifies it.
func (c *Client) fetchBlob(ctx context.Context, meta *fileMeta, blob, label string) error {
	incomplete := blob + ".incomplete"
	delay := c.retryDelay
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if attempt > 1 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(delay):
			}
			delay *= 2
		}
		if err = c.fetchOnce(ctx, meta, incomplete, label); err == nil || !retryable(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("downloading %s (partial file kept for resuming: %s): %w", label, incomplete, err)
	}
	if err := verify(incomplete, meta); err != nil {
		os.Remove(incomplete)
		return fmt.Errorf("%s: %w", label, err)
	}
	return os.Rename(incomplete, blob)
}

func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status >= 500 || se.Status == http.StatusRequestedRangeNotSatisfiable
	}
	return true
}

// fetchOnce makes one GET of the file, appending to incomplete from its
// current size with a Range request.
func (c *Client) fetchOnce(ctx context.Context, meta *fileMeta, incomplete, label string) error {
	f, err := os.OpenFile(incomplete, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	off, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if meta.size >= 0 && off > meta.size {
		if off, err = restart(f); err != nil {
			return err
		}
	}
	if meta.size >= 0 && off == meta.size {
		return nil
	}
	req, err := c.newRequest(ctx, http.MethodGet, meta.location)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", "identity")
	if off > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(off, 10)+"-")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		if start, ok := rangeStart(resp.Header.Get("Content-Range")); !ok || start != off {
			// Not the range asked for: start over rather than splice.
			if _, err := restart(f); err != nil {
				return err
			}
			return fmt.Errorf("server answered range %q to a request from byte %d", resp.Header.Get("Content-Range"), off)
		}
	case http.StatusOK:
		if off, err = restart(f); err != nil {
			return err
		}
	case http.StatusRequestedRangeNotSatisfiable:
		restart(f)
		return statusError(resp)
	default:
		return statusError(resp)
	}
	var w io.Writer = f
	var bar *progressbar.ProgressBar
	if c.progress != nil {
		total := meta.size
		if total < 0 && resp.ContentLength >= 0 {
			total = off + resp.ContentLength
		}
		bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(c.progress),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(c.progress) }),
		)
		bar.Set64(off)
		w = io.MultiWriter(f, bar)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		if bar != nil {
			bar.Exit() // keep the bar where it stopped
		}
		return err
	}
	if bar != nil {
		bar.Finish()
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if meta.size >= 0 {
		if n, _ := f.Seek(0, io.SeekEnd); n < meta.size {
			return fmt.Errorf("connection closed after %d of %d bytes: %w", n, meta.size, io.ErrUnexpectedEOF)
		}
	}
	return nil
}

func restart(f *os.File) (int64, error) {
	if err := f.Truncate(0); err != nil {
		return 0, err
	}
	return f.Seek(0, io.SeekStart)
}

// rangeStart parses the first byte of "bytes START-END/TOTAL".
func rangeStart(cr string) (int64, bool) {
	s, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return 0, false
	}
	s, _, ok = strings.Cut(s, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

var (
	sha256Re = regexp.MustCompile(`^[0-9a-f]{64}$`)
	sha1Re   = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// verify checks the file against the size and ETag the Hub announced: an
// LFS file's ETag is the sha256 of its content, a regular file's is the git
// blob sha1 ("blob <size>\x00" + content). Other ETags are not hashes and are
// not checked.
func verify(name string, meta *fileMeta) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if meta.size >= 0 && fi.Size() != meta.size {
		return fmt.Errorf("size %d, expected %d: %w", fi.Size(), meta.size, ErrChecksum)
	}
	var h hash.Hash
	switch {
	case sha256Re.MatchString(meta.etag):
		h = sha256.New()
	case sha1Re.MatchString(meta.etag):
		h = sha1.New()
		fmt.Fprintf(h, "blob %d\x00", fi.Size())
	default:
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != meta.etag {
		return fmt.Errorf("hash %s, expected %s: %w", got, meta.etag, ErrChecksum)
	}
	return nil
}

// snapshotFiles lists the files (relative, slash-separated) under a cached
// snapshot, sorted.
func snapshotFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out, err
}
