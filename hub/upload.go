package hub

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The write side of the Hub API, as huggingface_hub's HfApi calls it for
// whoami, create_repo, upload_file / upload_folder (create_commit) and the
// repository settings: what lm-eval's EvaluationTracker uses to publish
// results. Files go inline in the commit (base64) unless the Hub's
// preupload asks for Git LFS (files of 10 MB or more): those are uploaded
// through the LFS batch API first (basic transfer) and committed as lfsFile
// entries.

// ErrNeedsLFS: the Hub asked for an LFS transfer this client does not do
// (multipart, for files the Hub wants sent in chunks).
var ErrNeedsLFS = errors.New("the Hub wants this file uploaded with multipart Git LFS, which lmeval does not implement")

// CommitFile is one file of a commit: its path in the repository and its
// content.
type CommitFile struct {
	Path string
	Data []byte
}

// CommitInfo is the Hub's answer to a commit.
type CommitInfo struct {
	CommitURL string `json:"commitUrl"`
	CommitOID string `json:"commitOid"`
}

// WhoAmI is the name of the token's owner (GET /api/whoami-v2).
func (c *Client) WhoAmI(ctx context.Context) (string, error) {
	if c.token == "" {
		return "", errors.New("whoami: no token (set HF_TOKEN)")
	}
	if c.offline {
		return "", errors.New("whoami: offline mode is on (HF_HUB_OFFLINE=1)")
	}
	var v struct {
		Name string `json:"name"`
	}
	if _, err := c.getJSON(ctx, c.endpoint+"/api/whoami-v2", &v); err != nil {
		return "", fmt.Errorf("whoami: %w", err)
	}
	if v.Name == "" {
		return "", errors.New("whoami: the Hub named no user for the token")
	}
	return v.Name, nil
}

// CreateRepo creates a repository, private or public (POST
// /api/repos/create); one that exists already is no error (exist_ok=True).
func (c *Client) CreateRepo(ctx context.Context, repo Repo, private bool) error {
	org, name, ok := strings.Cut(repo.ID, "/")
	if !ok {
		org, name = "", repo.ID
	}
	body := map[string]any{"name": name, "private": private, "type": string(repo.Type)}
	if org != "" {
		body["organization"] = org
	}
	err := c.sendJSON(ctx, http.MethodPost, c.endpoint+"/api/repos/create", body, nil)
	var se *StatusError
	if errors.As(err, &se) && se.Status == http.StatusConflict {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", repo, err)
	}
	return nil
}

// SetGated gates a repository (PUT /api/{type}s/{repo}/settings
// {"gated": mode}); mode is "auto" or "manual".
func (c *Client) SetGated(ctx context.Context, repo Repo, mode string) error {
	if err := c.sendJSON(ctx, http.MethodPut, c.apiURL(repo, "/settings"), map[string]any{"gated": mode}, nil); err != nil {
		return fmt.Errorf("gate %s: %w", repo, err)
	}
	return nil
}

// Commit commits files to a branch of a repository ("" means main), as
// huggingface_hub's create_commit does for files uploaded inline: it asks
// the Hub how each file is to be uploaded (POST .../preupload/{revision}),
// then sends the commit (POST .../commit/{revision}) as NDJSON, a header
// line with the message and a line per file with its base64 content.
func (c *Client) Commit(ctx context.Context, repo Repo, revision, message string, files []CommitFile) (*CommitInfo, error) {
	if revision == "" {
		revision = "main"
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("commit to %s: no files", repo)
	}
	type preFile struct {
		Path   string `json:"path"`
		Sample string `json:"sample"`
		Size   int    `json:"size"`
	}
	pre := struct {
		Files []preFile `json:"files"`
	}{}
	for _, f := range files {
		sample := f.Data[:min(len(f.Data), 512)]
		pre.Files = append(pre.Files, preFile{Path: f.Path, Sample: base64.StdEncoding.EncodeToString(sample), Size: len(f.Data)})
	}
	var modes struct {
		Files []struct {
			Path         string `json:"path"`
			UploadMode   string `json:"uploadMode"`
			ShouldIgnore bool   `json:"shouldIgnore"`
		} `json:"files"`
	}
	if err := c.sendJSON(ctx, http.MethodPost, c.apiURL(repo, "/preupload/"+escapeRev(revision)), pre, &modes); err != nil {
		return nil, fmt.Errorf("commit to %s: %w", repo, err)
	}
	ignore := map[string]bool{}
	lfs := map[string]bool{}
	for _, m := range modes.Files {
		if m.ShouldIgnore {
			ignore[m.Path] = true
			continue
		}
		if m.UploadMode == "lfs" {
			lfs[m.Path] = true
		}
	}
	var lfsFiles []CommitFile
	for _, f := range files {
		if lfs[f.Path] && !ignore[f.Path] {
			lfsFiles = append(lfsFiles, f)
		}
	}
	if err := c.uploadLFS(ctx, repo, revision, lfsFiles); err != nil {
		return nil, fmt.Errorf("commit to %s: %w", repo, err)
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	line := func(key string, value any) {
		enc.Encode(map[string]any{"key": key, "value": value})
	}
	line("header", map[string]any{"summary": message, "description": ""})
	n := 0
	for _, f := range files {
		if ignore[f.Path] {
			continue
		}
		if lfs[f.Path] {
			line("lfsFile", map[string]any{"path": f.Path, "algo": "sha256", "oid": sha256Hex(f.Data), "size": len(f.Data)})
		} else {
			line("file", map[string]any{"content": base64.StdEncoding.EncodeToString(f.Data), "path": f.Path, "encoding": "base64"})
		}
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("commit to %s: the Hub ignores every file", repo)
	}
	var info CommitInfo
	if err := c.send(ctx, http.MethodPost, c.apiURL(repo, "/commit/"+escapeRev(revision)), "application/x-ndjson", body.Bytes(), &info); err != nil {
		return nil, fmt.Errorf("commit to %s: %w", repo, err)
	}
	return &info, nil
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// uploadLFS uploads files through the Git LFS batch API, as huggingface_hub
// does before create_commit: POST {endpoint}/{prefix}{repo}.git/info/lfs/objects/batch
// lists the objects; each one the Hub answers with an upload action is PUT
// to its href (basic transfer), then verified when the Hub asks; objects
// without actions are on the Hub already.
func (c *Client) uploadLFS(ctx context.Context, repo Repo, revision string, files []CommitFile) error {
	if len(files) == 0 {
		return nil
	}
	type object struct {
		OID  string `json:"oid"`
		Size int    `json:"size"`
	}
	type action struct {
		Href   string            `json:"href"`
		Header map[string]string `json:"header"`
	}
	req := struct {
		Operation string            `json:"operation"`
		Transfers []string          `json:"transfers"`
		Objects   []object          `json:"objects"`
		HashAlgo  string            `json:"hash_algo"`
		Ref       map[string]string `json:"ref"`
	}{Operation: "upload", Transfers: []string{"basic", "multipart"}, HashAlgo: "sha256", Ref: map[string]string{"name": revision}}
	byOID := map[string]CommitFile{}
	for _, f := range files {
		o := object{OID: sha256Hex(f.Data), Size: len(f.Data)}
		if _, dup := byOID[o.OID]; !dup {
			req.Objects = append(req.Objects, o)
		}
		byOID[o.OID] = f
	}
	var resp struct {
		Objects []struct {
			OID     string `json:"oid"`
			Size    int    `json:"size"`
			Actions struct {
				Upload *action `json:"upload"`
				Verify *action `json:"verify"`
			} `json:"actions"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"objects"`
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	batchURL := c.endpoint + "/" + repo.urlPrefix() + repo.ID + ".git/info/lfs/objects/batch"
	if err := c.do(ctx, http.MethodPost, batchURL, map[string]string{"Accept": lfsJSON, "Content-Type": lfsJSON}, bytes.NewReader(body), int64(len(body)), &resp); err != nil {
		return fmt.Errorf("LFS batch: %w", err)
	}
	for _, o := range resp.Objects {
		f, ok := byOID[o.OID]
		if !ok {
			return fmt.Errorf("LFS batch: the Hub answered for object %s, which was not asked for", o.OID)
		}
		if o.Error != nil {
			return fmt.Errorf("LFS upload of %s: the Hub refused it: %d %s", f.Path, o.Error.Code, o.Error.Message)
		}
		up := o.Actions.Upload
		if up == nil {
			continue // already on the Hub
		}
		if _, multipart := up.Header["chunk_size"]; multipart {
			return fmt.Errorf("LFS upload of %s: %w", f.Path, ErrNeedsLFS)
		}
		if err := c.do(ctx, http.MethodPut, up.Href, up.Header, bytes.NewReader(f.Data), int64(len(f.Data)), nil); err != nil {
			return fmt.Errorf("LFS upload of %s: %w", f.Path, err)
		}
		if v := o.Actions.Verify; v != nil {
			vb, _ := json.Marshal(map[string]any{"oid": o.OID, "size": len(f.Data)})
			h := map[string]string{"Accept": lfsJSON, "Content-Type": lfsJSON}
			for k, val := range v.Header {
				h[k] = val
			}
			if err := c.do(ctx, http.MethodPost, v.Href, h, bytes.NewReader(vb), int64(len(vb)), nil); err != nil {
				return fmt.Errorf("LFS verify of %s: %w", f.Path, err)
			}
		}
	}
	return nil
}

const lfsJSON = "application/vnd.git-lfs+json"

// do makes a write request with the given headers, streaming body (a
// bytes.Reader, so redirects can resend it), and decodes a JSON answer into
// out (nil: ignored).
func (c *Client) do(ctx context.Context, method, u string, header map[string]string, body *bytes.Reader, size int64, out any) error {
	if c.offline {
		return fmt.Errorf("%s %s: offline mode is on (HF_HUB_OFFLINE=1)", method, u)
	}
	if c.token == "" {
		return fmt.Errorf("%s %s: writing to the Hub needs a token (set HF_TOKEN)", method, u)
	}
	req, err := c.newRequest(ctx, method, u)
	if err != nil {
		return err
	}
	snap := *body
	req.Body = io.NopCloser(body)
	req.ContentLength = size
	req.GetBody = func() (io.ReadCloser, error) { r := snap; return io.NopCloser(&r), nil }
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError(resp)
	}
	if out == nil {
		io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s %s: decoding JSON: %w", method, req.URL.Redacted(), err)
	}
	return nil
}

// sendJSON sends v as a JSON body and decodes the JSON answer into out
// (nil: ignored).
func (c *Client) sendJSON(ctx context.Context, method, u string, v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.send(ctx, method, u, "application/json", b, out)
}

// send makes a write request; writes need a token and the network.
func (c *Client) send(ctx context.Context, method, u, contentType string, body []byte, out any) error {
	if c.offline {
		return fmt.Errorf("%s %s: offline mode is on (HF_HUB_OFFLINE=1)", method, u)
	}
	if c.token == "" {
		return fmt.Errorf("%s %s: writing to the Hub needs a token (set HF_TOKEN)", method, u)
	}
	req, err := c.newRequest(ctx, method, u)
	if err != nil {
		return err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError(resp)
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s %s: decoding JSON: %w", method, req.URL.Redacted(), err)
	}
	return nil
}
