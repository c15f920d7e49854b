package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

const userAgent = "lmeval (huggingface_hub-compatible)"

// newRequest builds a request to the Hub. The token goes only to the Hub's
// own host, never to a CDN the Hub redirects to.
func (c *Client) newRequest(ctx context.Context, method, u string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	if c.token != "" && c.sameHost(u) {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

func (c *Client) sameHost(u string) bool {
	a, err1 := url.Parse(u)
	b, err2 := url.Parse(c.endpoint)
	return err1 == nil && err2 == nil && strings.EqualFold(a.Host, b.Host)
}

// statusError turns a failed response into a *StatusError, reading the Hub's
// error headers or JSON body.
func statusError(resp *http.Response) error {
	e := &StatusError{
		Method:  resp.Request.Method,
		URL:     resp.Request.URL.Redacted(),
		Status:  resp.StatusCode,
		Code:    resp.Header.Get("X-Error-Code"),
		Message: resp.Header.Get("X-Error-Message"),
	}
	if e.Message == "" && resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		var body struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &body) == nil && body.Error != "" {
			e.Message = body.Error
		} else if s := strings.TrimSpace(string(b)); s != "" && len(s) < 300 {
			e.Message = s
		}
	}
	return e
}

// getJSON fetches u (following redirects) and decodes its JSON body into v.
// It returns the response headers for pagination.
func (c *Client) getJSON(ctx context.Context, u string, v any) (http.Header, error) {
	req, err := c.newRequest(ctx, http.MethodGet, u)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, statusError(resp)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return nil, fmt.Errorf("GET %s: decoding JSON: %w", req.URL.Redacted(), err)
	}
	return resp.Header, nil
}

var linkNext = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// nextLink is the rel="next" URL of a paginated Hub listing, or "".
func nextLink(h http.Header) string {
	m := linkNext.FindStringSubmatch(h.Get("Link"))
	if m == nil {
		return ""
	}
	return m[1]
}

// fileMeta is what a HEAD on a resolve URL tells about a file.
type fileMeta struct {
	resolveURL string // last Hub URL (…/resolve/rev/path) before any CDN redirect
	location   string // where to GET the bytes
	commit     string // X-Repo-Commit
	etag       string // blob id: sha256 for LFS files, git sha1 otherwise
	size       int64  // -1 when unknown
}

// fileMetadata asks the Hub about a file with HEAD, following redirects on
// the Hub's own host (renamed repos, API URLs that point at resolve URLs) but
// stopping at the response that carries the file's metadata, as
// huggingface_hub's get_hf_file_metadata does.
func (c *Client) fileMetadata(ctx context.Context, u string) (*fileMeta, error) {
	noRedirect := *c.http
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for hops := 0; hops < 10; hops++ {
		// API URLs (the Parquet listing's) only redirect to resolve URLs and
		// need not support HEAD: ask them with GET and read just the headers.
		method := http.MethodHead
		if !strings.Contains(u, "/resolve/") {
			method = http.MethodGet
		}
		req, err := c.newRequest(ctx, method, u)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept-Encoding", "identity")
		resp, err := noRedirect.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		h := resp.Header
		hasMeta := h.Get("X-Repo-Commit") != "" || h.Get("X-Linked-Etag") != ""
		switch {
		case resp.StatusCode >= 300 && resp.StatusCode < 400:
			loc, err := resp.Location()
			if err != nil {
				return nil, fmt.Errorf("HEAD %s: redirect without Location: %w", u, err)
			}
			// Follow the Hub's own redirects (a renamed repo, an API URL that
			// points at a resolve URL) up to the response about the file.
			if !hasMeta || !strings.Contains(u, "/resolve/") && c.sameHost(loc.String()) {
				u = loc.String()
				continue
			}
			return metaFrom(u, loc.String(), h), nil
		case resp.StatusCode == http.StatusOK:
			return metaFrom(u, u, h), nil
		default:
			return nil, statusError(resp)
		}
	}
	return nil, fmt.Errorf("HEAD %s: too many redirects", u)
}

func metaFrom(resolveURL, location string, h http.Header) *fileMeta {
	m := &fileMeta{resolveURL: resolveURL, location: location, commit: h.Get("X-Repo-Commit"), size: -1}
	m.etag = normalizeETag(firstNonEmpty(h.Get("X-Linked-Etag"), h.Get("ETag")))
	if n, err := strconv.ParseInt(firstNonEmpty(h.Get("X-Linked-Size"), h.Get("Content-Length")), 10, 64); err == nil {
		m.size = n
	}
	return m
}

func normalizeETag(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "W/")
	return strings.Trim(s, `"`)
}

// parseResolveURL splits a Hub file URL {endpoint}/[datasets/]{repo}/resolve/{rev}/{path}
// into its revision and path in the repo.
func parseResolveURL(u string) (rev, path string, err error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", "", err
	}
	p := pu.EscapedPath()
	i := strings.Index(p, "/resolve/")
	if i < 0 {
		return "", "", fmt.Errorf("not a Hub file URL: %s", u)
	}
	rest := p[i+len("/resolve/"):]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return "", "", fmt.Errorf("not a Hub file URL: %s", u)
	}
	if rev, err = url.PathUnescape(rest[:j]); err != nil {
		return "", "", err
	}
	if path, err = url.PathUnescape(rest[j+1:]); err != nil {
		return "", "", err
	}
	return rev, path, nil
}

// isNetworkError reports whether err is a failure to reach the Hub (as opposed
// to an answer from it), after which a cached copy may be used.
func isNetworkError(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status >= 500
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// Unreachable reports whether err is a failure to reach a server (a name
// that does not resolve, a connection refused, reset or timed out), as
// opposed to an answer from it.
func Unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	var ne net.Error
	return errors.As(err, &dns) || errors.As(err, &op) || errors.As(err, &ne) && ne.Timeout()
}

// escapeRev escapes a revision for a URL path segment (refs/convert/parquet
// becomes refs%2Fconvert%2Fparquet).
func escapeRev(rev string) string { return url.PathEscape(rev) }

// escapePath escapes each segment of a repo file path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileURL is the resolve URL of a file.
func (c *Client) fileURL(repo Repo, rev, path string) string {
	return c.endpoint + "/" + repo.urlPrefix() + repo.ID + "/resolve/" + escapeRev(rev) + "/" + escapePath(path)
}

// apiURL is an API URL of the repo, suffix appended as is.
func (c *Client) apiURL(repo Repo, suffix string) string {
	return c.endpoint + "/" + repo.apiPrefix() + repo.ID + suffix
}
