package hub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// HubFile recognises a file on the Hub given as a resolve URL of the
// client's endpoint ({endpoint}/[datasets/]{repo}/resolve/{rev}/{path}) or as
// an hf:// path (hf://datasets/{repo}[@rev]/{path}, hf://[models/]{repo}[@rev]/{path}).
func (c *Client) HubFile(s string) (repo Repo, rev, file string, ok bool) {
	if rest, isHF := strings.CutPrefix(s, "hf://"); isHF {
		typ := Model
		if r, isDS := strings.CutPrefix(rest, "datasets/"); isDS {
			typ, rest = Dataset, r
		} else {
			rest = strings.TrimPrefix(rest, "models/")
		}
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) < 3 {
			return Repo{}, "", "", false
		}
		name, rev, _ := strings.Cut(parts[1], "@")
		if checkRelPath(parts[2]) != nil {
			return Repo{}, "", "", false
		}
		return Repo{typ, parts[0] + "/" + name}, rev, parts[2], true
	}
	if !c.sameHost(s) {
		return Repo{}, "", "", false
	}
	u, err := url.Parse(s)
	if err != nil {
		return Repo{}, "", "", false
	}
	rev, file, err = parseResolveURL(s)
	if err != nil {
		return Repo{}, "", "", false
	}
	p := strings.TrimPrefix(u.EscapedPath(), strings.TrimRight(mustPath(c.endpoint), "/"))
	p = strings.TrimPrefix(p, "/")
	typ := Model
	if r, isDS := strings.CutPrefix(p, "datasets/"); isDS {
		typ, p = Dataset, r
	}
	id, _, _ := strings.Cut(p, "/resolve/")
	if id == "" {
		return Repo{}, "", "", false
	}
	return Repo{typ, id}, rev, file, true
}

func mustPath(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return pu.EscapedPath()
}

// DownloadsDir is where DownloadURL keeps files from outside the Hub:
// "github.com/lmeval/lmeval/downloads" beside the hub cache ($HF_HOME/lmeval/downloads).
func (c *Client) DownloadsDir() string {
	return filepath.Join(filepath.Dir(c.cacheDir), "lmeval", "downloads")
}

// DownloadURL fetches a file named by URL. Hub files (see HubFile) go
// through Download and the hub cache; any other http(s) URL is downloaded
// once into DownloadsDir, under a name derived from the URL, with the same
// temporary-file, resume and locking discipline (but no checksum: other
// servers announce none).
func (c *Client) DownloadURL(ctx context.Context, rawURL string) (string, error) {
	if repo, rev, file, ok := c.HubFile(rawURL); ok {
		return c.Download(ctx, repo, rev, file)
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("not an http(s) URL: %q", rawURL)
	}
	sum := sha256.Sum256([]byte(rawURL))
	base := path.Base(u.Path)
	if base == "/" || base == "." || checkRelPath(base) != nil {
		base = "file"
	}
	dst := filepath.Join(c.DownloadsDir(), hex.EncodeToString(sum[:8]), base)
	size := int64(-1)
	if _, err := os.Stat(dst); err != nil && !c.offline {
		if req, err := c.newRequest(ctx, http.MethodHead, rawURL); err == nil {
			req.Header.Set("Accept-Encoding", "identity")
			if resp, err := c.http.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					if n, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64); err == nil {
						size = n
					}
				}
			}
		}
	}
	lock := filepath.Join(c.DownloadsDir(), ".locks", hex.EncodeToString(sum[:8])+".lock")
	if err := c.downloadFile(ctx, rawURL, dst, lock, size, ""); err != nil {
		return "", err
	}
	return c.used(dst), nil
}

// DownloadFile fetches an http(s) URL from outside the Hub into dst,
// unless dst exists, through dst+".incomplete": an interrupted download
// is retried, and a later call resumes it with a Range request; a lock
// beside dst keeps concurrent processes from downloading it twice. size
// (-1: unknown) and sum256 (hex sha256; "": unchecked) are verified when given,
// a mismatch deleting the download and wrapping ErrChecksum. Offline, a
// missing dst is ErrOffline.
func (c *Client) DownloadFile(ctx context.Context, rawURL, dst string, size int64, sum256 string) error {
	return c.downloadFile(ctx, rawURL, dst, dst+".lock", size, sum256)
}

func (c *Client) downloadFile(ctx context.Context, rawURL, dst, lock string, size int64, sum256 string) error {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("not an http(s) URL: %q", rawURL)
	}
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if c.offline {
		return fmt.Errorf("%s (%s): %w", u.Redacted(), dst, ErrOffline)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	unlock, err := lockFile(ctx, lock)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	meta := &fileMeta{location: rawURL, size: size, etag: strings.ToLower(sum256)}
	if err := c.fetchBlob(ctx, meta, dst, path.Base(u.Path)); err != nil {
		return fmt.Errorf("%s: %w", u.Redacted(), err)
	}
	return nil
}
