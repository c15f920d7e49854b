// Package hubtest runs a local HTTP server that behaves like the Hugging Face
// Hub for the endpoints lmeval uses, so tests never touch the network: repo
// info, refs, tree listings, file resolution with redirects to a CDN-like
// path (and the X-Repo-Commit / X-Linked-Etag / X-Linked-Size headers the Hub
// sends), the Parquet conversion API of datasets, legacy-name redirects,
// gated repositories, Range requests, and injected faults (a download cut in
// the middle, corrupted bytes). Writes as huggingface_hub makes them are
// served too: whoami, repository creation (private repositories are hidden
// from other callers), the preupload and commit API (NDJSON, base64
// files, and lfsFile entries for objects uploaded through the Git LFS batch
// API: batch, a basic-transfer upload URL on this server, verify) and the
// gating setting, with injected commit and LFS upload failures.
package hubtest

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Token is the token that opens gated repositories; it is also the one
// token allowed to write, as User.
const Token = "hf_hubtestTokenThatOpensGatedRepositories00"

// User is the owner of Token (whoami's name).
const User = "hubtest-user"

// LFSThreshold is the size from which preupload asks for an LFS upload, as
// the Hub does for large files.
const LFSThreshold = 10 << 20

// Request is one request the server received.
type Request struct {
	Method string
	Path   string // escaped path, query included
	Range  string // the Range header
	Auth   string // the Authorization header
}

type file struct {
	data []byte
	lfs  bool
	etag string // sha256 (LFS) or git blob sha1
}

type repo struct {
	gated    bool
	private  bool
	branches map[string]map[string]*file // branch -> path -> file
	commits  []Commit
}

// Commit is one commit the server received: its message and the paths it
// wrote.
type Commit struct {
	Message string
	Paths   []string
}

// Server is a fake Hub. Configure it with the Add*/Set* methods, then point
// a hub.Client (or HF_ENDPOINT) at URL.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	repos    map[string]*repo // "model:owner/name" or "dataset:owner/name"
	aliases  map[string]string
	requests []Request
	cuts     map[string]int  // etag -> number of GETs still to cut short
	corrupt  map[string]bool // etag -> serve altered bytes
	delay    time.Duration
	pageSize int
	failing  int               // commits still to fail with HTTP 500
	lfsObjs  map[string][]byte // sha256 -> object uploaded through LFS
	failLFS  int               // LFS uploads still to fail with HTTP 500
}

// New starts a server that stops when the test ends.
func New(t testing.TB) *Server {
	s := &Server{
		repos:   make(map[string]*repo),
		aliases: make(map[string]string),
		cuts:    make(map[string]int),
		corrupt: make(map[string]bool),
		lfsObjs: make(map[string][]byte),
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Use points the environment at the server for the rest of the test, as a
// user would with HF_ENDPOINT: HF_HOME becomes a fresh directory (returned),
// and HF_TOKEN, HF_HUB_CACHE and HF_HUB_OFFLINE are cleared.
func (s *Server) Use(t testing.TB) (hfHome string) {
	hfHome = t.TempDir()
	t.Setenv("HF_ENDPOINT", s.URL)
	t.Setenv("HF_HOME", hfHome)
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HUB_CACHE", "")
	t.Setenv("HF_HUB_OFFLINE", "")
	return hfHome
}

func key(typ, id string) string { return typ + ":" + id }

// AddFile puts a file on a branch ("" means main) of a repository of type
// "model" or "dataset", creating both as needed. Files ending in .parquet,
// .gguf or .bin are stored as LFS files (ETag = sha256), others as regular
// git files (ETag = git blob sha1), as on the Hub.
func (s *Server) AddFile(typ, id, branch, path string, data []byte) {
	if branch == "" {
		branch = "main"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[key(typ, id)]
	if r == nil {
		r = &repo{branches: make(map[string]map[string]*file)}
		s.repos[key(typ, id)] = r
	}
	if r.branches[branch] == nil {
		r.branches[branch] = make(map[string]*file)
	}
	f := &file{data: append([]byte(nil), data...)}
	switch {
	case strings.HasSuffix(path, ".parquet"), strings.HasSuffix(path, ".gguf"), strings.HasSuffix(path, ".bin"):
		f.lfs = true
		h := sha256.Sum256(data)
		f.etag = hex.EncodeToString(h[:])
	default:
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(data))
		h.Write(data)
		f.etag = hex.EncodeToString(h.Sum(nil))
	}
	r.branches[branch][path] = f
}

// AddParquet adds the Parquet conversion of one config and split of a
// dataset: the shards go to refs/convert/parquet as {config}/{split}/0000.parquet, ...
func (s *Server) AddParquet(id, config, split string, shards ...[]byte) {
	for i, b := range shards {
		s.AddFile("dataset", id, "refs/convert/parquet", fmt.Sprintf("%s/%s/%04d.parquet", config, split, i), b)
	}
}

// SetGated makes a repository answer 401 (403 with a wrong token) unless
// requests carry Token.
func (s *Server) SetGated(typ, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[key(typ, id)]; r != nil {
		r.gated = true
	}
}

// AddAlias makes a legacy dataset name redirect to its namespaced repository,
// as the Hub does for hellaswag -> Rowan/hellaswag.
func (s *Server) AddAlias(legacy, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.aliases[legacy] = id
}

// CutNext makes the next n downloads of the file stop after half of the
// bytes asked for, the connection closed mid-body.
func (s *Server) CutNext(typ, id, branch, path string, n int) {
	if f := s.lookup(typ, id, branch, path); f != nil {
		s.mu.Lock()
		s.cuts[f.etag] = n
		s.mu.Unlock()
	}
}

// Corrupt makes downloads of the file serve altered bytes under the right
// headers, so the client's checksum must catch it.
func (s *Server) Corrupt(typ, id, branch, path string, on bool) {
	if f := s.lookup(typ, id, branch, path); f != nil {
		s.mu.Lock()
		s.corrupt[f.etag] = on
		s.mu.Unlock()
	}
}

// SetDelay slows every CDN response body by d, so concurrent downloads
// overlap.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	s.delay = d
	s.mu.Unlock()
}

// SetPageSize makes tree listings paginate n entries at a time with a
// Link: <...>; rel="next" header, as the Hub does for large repositories
// (0: no pagination).
func (s *Server) SetPageSize(n int) {
	s.mu.Lock()
	s.pageSize = n
	s.mu.Unlock()
}

// Commit is the commit a branch of a repository points to: a hash of its
// content, so it changes whenever a file does.
func (s *Server) Commit(typ, id, branch string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[key(typ, id)]
	if r == nil {
		return ""
	}
	return commitOf(r.branches[branch])
}

// FailCommits makes the next n commits fail with HTTP 500.
func (s *Server) FailCommits(n int) {
	s.mu.Lock()
	s.failing = n
	s.mu.Unlock()
}

// FailLFSUploads makes the next n LFS object uploads fail with HTTP 500.
func (s *Server) FailLFSUploads(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLFS = n
}

// Commits lists the commits made to a repository, oldest first.
func (s *Server) Commits(typ, id string) []Commit {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[key(typ, id)]; r != nil {
		return append([]Commit(nil), r.commits...)
	}
	return nil
}

// File returns a file's content on a branch ("" means main).
func (s *Server) File(typ, id, branch, path string) ([]byte, bool) {
	if f := s.lookup(typ, id, branch, path); f != nil {
		return append([]byte(nil), f.data...), true
	}
	return nil, false
}

// Repo reports whether a repository exists, and whether it is private and
// gated.
func (s *Server) Repo(typ, id string) (exists, private, gated bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[key(typ, id)]
	if r == nil {
		return false, false, false
	}
	return true, r.private, r.gated
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests with this method whose path contains sub.
func (s *Server) Count(method, sub string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == method && strings.Contains(r.Path, sub) {
			n++
		}
	}
	return n
}

// CDNPath is the path the server redirects downloads of a file to.
func (s *Server) CDNPath(typ, id, branch, path string) string {
	if f := s.lookup(typ, id, branch, path); f != nil {
		return "/cdn/" + f.etag
	}
	return ""
}

func (s *Server) lookup(typ, id, branch, path string) *file {
	if branch == "" {
		branch = "main"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[key(typ, id)]; r != nil {
		return r.branches[branch][path]
	}
	return nil
}

func commitOf(files map[string]*file) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha1.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%s\x00", p, files[p].etag)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resolveRev finds the branch a revision names (a branch name or a commit).
func resolveRev(r *repo, rev string) (string, map[string]*file) {
	if files, ok := r.branches[rev]; ok {
		return commitOf(files), files
	}
	for _, files := range r.branches {
		if commitOf(files) == rev {
			return rev, files
		}
	}
	return "", nil
}

func hubError(w http.ResponseWriter, status int, code, msg string) {
	if code != "" {
		w.Header().Set("X-Error-Code", code)
	}
	w.Header().Set("X-Error-Message", msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	full := p
	if r.URL.RawQuery != "" {
		full += "?" + r.URL.RawQuery
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: full, Range: r.Header.Get("Range"), Auth: r.Header.Get("Authorization")})
	s.mu.Unlock()

	switch {
	case p == "/api/whoami-v2":
		s.serveWhoAmI(w, r)
	case p == "/api/repos/create":
		s.serveCreate(w, r)
	case strings.HasSuffix(p, ".git/info/lfs/objects/batch"):
		s.serveLFSBatch(w, r)
	case strings.HasPrefix(p, "/lfs-upload/"):
		s.serveLFSUpload(w, r, strings.TrimPrefix(p, "/lfs-upload/"))
	case p == "/lfs-verify":
		s.serveLFSVerify(w, r)
	case strings.HasPrefix(p, "/cdn/"):
		s.serveCDN(w, r, strings.TrimPrefix(p, "/cdn/"))
	case strings.HasPrefix(p, "/api/models/"):
		s.serveAPI(w, r, "model", "/api/models/", strings.TrimPrefix(p, "/api/models/"))
	case strings.HasPrefix(p, "/api/datasets/"):
		s.serveAPI(w, r, "dataset", "/api/datasets/", strings.TrimPrefix(p, "/api/datasets/"))
	case strings.Contains(p, "/resolve/"):
		typ, prefix, rest := "model", "/", strings.TrimPrefix(p, "/")
		if strings.HasPrefix(p, "/datasets/") {
			typ, prefix, rest = "dataset", "/datasets/", strings.TrimPrefix(p, "/datasets/")
		}
		s.serveResolve(w, r, typ, prefix, rest)
	default:
		hubError(w, http.StatusNotFound, "", "no such endpoint: "+p)
	}
}

// splitID separates a repo id (one or two segments) from the rest of an
// escaped path, given the keyword that follows the id.
func splitID(rest string, keywords ...string) (id, tail string) {
	segs := strings.Split(rest, "/")
	n := 2
	if len(segs) == 1 {
		n = 1
	} else {
		for _, k := range keywords {
			if segs[1] == k {
				n = 1
			}
		}
	}
	if n > len(segs) {
		n = len(segs)
	}
	return strings.Join(segs[:n], "/"), strings.Join(segs[n:], "/")
}

// access finds a repository and checks the caller may read it, writing the
// Hub's error (or a redirect for a legacy name) when not.
func (s *Server) access(w http.ResponseWriter, r *http.Request, typ, prefix, id, tail string) *repo {
	s.mu.Lock()
	canonical, aliased := s.aliases[id]
	rp := s.repos[key(typ, id)]
	s.mu.Unlock()
	if aliased && typ == "dataset" {
		loc := prefix + canonical + "/" + tail
		if r.URL.RawQuery != "" {
			loc += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, loc, http.StatusTemporaryRedirect)
		return nil
	}
	if rp == nil || rp.private && r.Header.Get("Authorization") != "Bearer "+Token {
		hubError(w, http.StatusNotFound, "RepoNotFound", "Repository Not Found for url: "+r.URL.String())
		return nil
	}
	if rp.gated {
		switch r.Header.Get("Authorization") {
		case "Bearer " + Token:
		case "":
			hubError(w, http.StatusUnauthorized, "GatedRepo", "Access to "+typ+" "+id+" is restricted. You must have access to it and be authenticated to access it.")
			return nil
		default:
			hubError(w, http.StatusForbidden, "GatedRepo", "Access to "+typ+" "+id+" is restricted and you are not in the authorized list.")
			return nil
		}
	}
	return rp
}

func unescape(s string) string {
	u, err := url.PathUnescape(s)
	if err != nil {
		return s
	}
	return u
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, typ, prefix, rest string) {
	id, tail := splitID(rest, "revision", "refs", "tree", "parquet", "preupload", "commit", "settings")
	rp := s.access(w, r, typ, prefix, id, tail)
	if rp == nil {
		return
	}
	if seg, _, _ := strings.Cut(tail, "/"); seg == "preupload" || seg == "commit" || seg == "settings" {
		s.serveWrite(w, r, rp, typ, id, seg, tail)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	segs := strings.Split(tail, "/")
	switch {
	case tail == "" || segs[0] == "revision":
		rev := "main"
		if len(segs) > 1 {
			rev = unescape(strings.Join(segs[1:], "/"))
		}
		commit, files := resolveRev(rp, rev)
		if files == nil {
			hubError(w, http.StatusNotFound, "RevisionNotFound", "Invalid rev id: "+rev)
			return
		}
		type sibling struct {
			RFilename string `json:"rfilename"`
		}
		sib := []sibling{}
		for _, p := range sortedPaths(files) {
			sib = append(sib, sibling{p})
		}
		writeJSON(w, map[string]any{"id": id, "sha": commit, "siblings": sib, "private": false, "gated": rp.gated})
	case segs[0] == "refs":
		type branch struct {
			Name         string `json:"name"`
			Ref          string `json:"ref"`
			TargetCommit string `json:"targetCommit"`
		}
		out := map[string][]branch{"branches": {}, "converts": {}, "tags": {}}
		for name, files := range rp.branches {
			if c, ok := strings.CutPrefix(name, "refs/convert/"); ok {
				out["converts"] = append(out["converts"], branch{c, name, commitOf(files)})
			} else {
				out["branches"] = append(out["branches"], branch{name, "refs/heads/" + name, commitOf(files)})
			}
		}
		writeJSON(w, out)
	case segs[0] == "tree" && len(segs) > 1:
		_, files := resolveRev(rp, unescape(segs[1]))
		if files == nil {
			hubError(w, http.StatusNotFound, "RevisionNotFound", "Invalid rev id: "+unescape(segs[1]))
			return
		}
		dir := unescape(strings.Join(segs[2:], "/"))
		type lfs struct {
			OID         string `json:"oid"`
			Size        int    `json:"size"`
			PointerSize int    `json:"pointerSize"`
		}
		type entry struct {
			Type string `json:"type"`
			OID  string `json:"oid"`
			Size int    `json:"size"`
			Path string `json:"path"`
			LFS  *lfs   `json:"lfs,omitempty"`
		}
		entries := []entry{}
		dirs := map[string]bool{}
		for _, p := range sortedPaths(files) {
			if dir != "" && !strings.HasPrefix(p, dir+"/") {
				continue
			}
			for d := p; strings.Contains(d, "/"); {
				d = d[:strings.LastIndexByte(d, '/')]
				if !dirs[d] && (dir == "" || strings.HasPrefix(d, dir+"/")) {
					dirs[d] = true
					entries = append(entries, entry{Type: "directory", Path: d, OID: strings.Repeat("0", 40)})
				}
			}
			f := files[p]
			e := entry{Type: "file", Path: p, Size: len(f.data), OID: f.etag}
			if f.lfs {
				e.OID = gitSHA1([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:" + f.etag + "\n"))
				e.LFS = &lfs{OID: f.etag, Size: len(f.data), PointerSize: 134}
			}
			entries = append(entries, e)
		}
		if s.pageSize > 0 {
			cursor, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
			cursor = min(max(cursor, 0), len(entries))
			end := min(cursor+s.pageSize, len(entries))
			if end < len(entries) {
				q := r.URL.Query()
				q.Set("cursor", strconv.Itoa(end))
				w.Header().Set("Link", fmt.Sprintf("<%s%s?%s>; rel=\"next\"", s.URL, r.URL.EscapedPath(), q.Encode()))
			}
			entries = entries[cursor:end]
		}
		writeJSON(w, entries)
	case segs[0] == "parquet" && typ == "dataset":
		s.serveParquetAPI(w, r, rp, prefix+id, segs[1:])
	default:
		hubError(w, http.StatusNotFound, "", "no such endpoint")
	}
}

func gitSHA1(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func sortedPaths(files map[string]*file) []string {
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// serveParquetAPI answers /api/datasets/{id}/parquet[/{config}[/{split}[/{n}.parquet]]]
// from the files on refs/convert/parquet.
func (s *Server) serveParquetAPI(w http.ResponseWriter, r *http.Request, rp *repo, apiBase string, segs []string) {
	files := rp.branches["refs/convert/parquet"]
	if files == nil {
		hubError(w, http.StatusNotFound, "", "The dataset has no Parquet export.")
		return
	}
	// config -> split -> shard paths (sorted)
	listing := map[string]map[string][]string{}
	for _, p := range sortedPaths(files) {
		parts := strings.Split(p, "/")
		if len(parts) != 3 {
			continue
		}
		split := strings.TrimPrefix(parts[1], "partial-")
		if listing[parts[0]] == nil {
			listing[parts[0]] = map[string][]string{}
		}
		listing[parts[0]][split] = append(listing[parts[0]][split], p)
	}
	base := s.URL + apiBase + "/parquet"
	urls := func(config, split string) []string {
		out := []string{}
		for i := range listing[config][split] {
			out = append(out, fmt.Sprintf("%s/%s/%s/%d.parquet", base, url.PathEscape(config), url.PathEscape(split), i))
		}
		return out
	}
	for i := range segs {
		segs[i] = unescape(segs[i])
	}
	switch len(segs) {
	case 0:
		out := map[string]map[string][]string{}
		for c, splits := range listing {
			out[c] = map[string][]string{}
			for sp := range splits {
				out[c][sp] = urls(c, sp)
			}
		}
		writeJSON(w, out)
	case 1:
		if listing[segs[0]] == nil {
			hubError(w, http.StatusNotFound, "", "Not found.")
			return
		}
		out := map[string][]string{}
		for sp := range listing[segs[0]] {
			out[sp] = urls(segs[0], sp)
		}
		writeJSON(w, out)
	case 2:
		if listing[segs[0]][segs[1]] == nil {
			hubError(w, http.StatusNotFound, "", "Not found.")
			return
		}
		writeJSON(w, urls(segs[0], segs[1]))
	case 3:
		n, err := strconv.Atoi(strings.TrimSuffix(segs[2], ".parquet"))
		shards := listing[segs[0]][segs[1]]
		if err != nil || n < 0 || n >= len(shards) {
			hubError(w, http.StatusNotFound, "", "Not found.")
			return
		}
		repoPath := strings.TrimPrefix(apiBase, "/api")
		http.Redirect(w, r, s.URL+repoPath+"/resolve/"+url.PathEscape("refs/convert/parquet")+"/"+shards[n], http.StatusFound)
	default:
		hubError(w, http.StatusNotFound, "", "Not found.")
	}
}

// serveResolve answers {prefix}{id}/resolve/{rev}/{path}: LFS files redirect
// to the CDN path with the metadata headers, regular files are served here.
func (s *Server) serveResolve(w http.ResponseWriter, r *http.Request, typ, prefix, rest string) {
	id, tail := splitID(rest, "resolve")
	tail = strings.TrimPrefix(tail, "resolve/")
	rp := s.access(w, r, typ, prefix, id, "resolve/"+tail)
	if rp == nil {
		return
	}
	revEsc, pathEsc, _ := strings.Cut(tail, "/")
	rev, path := unescape(revEsc), unescape(pathEsc)
	s.mu.Lock()
	commit, files := resolveRev(rp, rev)
	f := files[path]
	s.mu.Unlock()
	if files == nil {
		hubError(w, http.StatusNotFound, "RevisionNotFound", "Invalid rev id: "+rev)
		return
	}
	if f == nil {
		hubError(w, http.StatusNotFound, "EntryNotFound", "Entry not found")
		return
	}
	w.Header().Set("X-Repo-Commit", commit)
	if f.lfs {
		w.Header().Set("X-Linked-Etag", `"`+f.etag+`"`)
		w.Header().Set("X-Linked-Size", strconv.Itoa(len(f.data)))
		w.Header().Set("ETag", `"`+gitSHA1([]byte(f.etag))+`"`)
		http.Redirect(w, r, s.URL+"/cdn/"+f.etag, http.StatusFound)
		return
	}
	w.Header().Set("ETag", `"`+f.etag+`"`)
	s.serveBytes(w, r, f)
}

func (s *Server) serveCDN(w http.ResponseWriter, r *http.Request, etag string) {
	s.mu.Lock()
	var f *file
	for _, rp := range s.repos {
		for _, files := range rp.branches {
			for _, g := range files {
				if g.etag == etag {
					f = g
				}
			}
		}
	}
	s.mu.Unlock()
	if f == nil {
		http.NotFound(w, r)
		return
	}
	s.serveBytes(w, r, f)
}

// serveBytes serves a file's content with Range support and the injected
// faults.
func (s *Server) serveBytes(w http.ResponseWriter, r *http.Request, f *file) {
	s.mu.Lock()
	data := f.data
	if s.corrupt[f.etag] && len(data) > 0 {
		data = append([]byte(nil), data...)
		data[len(data)/2] ^= 0xff
	}
	cut := r.Method == http.MethodGet && s.cuts[f.etag] > 0
	if cut {
		s.cuts[f.etag]--
	}
	delay := s.delay
	s.mu.Unlock()
	w.Header().Set("Accept-Ranges", "bytes")
	if !cut {
		if delay > 0 && r.Method == http.MethodGet {
			time.Sleep(delay)
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
		return
	}
	start := 0
	if rg := r.Header.Get("Range"); rg != "" {
		fmt.Sscanf(rg, "bytes=%d-", &start)
	}
	if start > len(data) {
		start = len(data)
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
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
	// Abort the connection with the body unfinished.
	panic(http.ErrAbortHandler)
}

// writer checks the caller may write: Token, else 401.
func writer(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer "+Token {
		hubError(w, http.StatusUnauthorized, "", "Invalid credentials in Authorization header")
		return false
	}
	return true
}

func (s *Server) serveWhoAmI(w http.ResponseWriter, r *http.Request) {
	if writer(w, r) {
		writeJSON(w, map[string]any{"type": "user", "name": User})
	}
}

// serveCreate is POST /api/repos/create {"name", "organization", "private",
// "type"}: 409 when the repository exists.
func (s *Server) serveCreate(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		hubError(w, http.StatusMethodNotAllowed, "", "POST only")
		return
	}
	if !writer(w, r) {
		return
	}
	var req struct {
		Name         string `json:"name"`
		Organization string `json:"organization"`
		Private      bool   `json:"private"`
		Type         string `json:"type"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" {
		hubError(w, http.StatusBadRequest, "", "bad create request")
		return
	}
	if req.Type == "" {
		req.Type = "model"
	}
	id := req.Name
	if req.Organization != "" {
		id = req.Organization + "/" + req.Name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repos[key(req.Type, id)] != nil {
		hubError(w, http.StatusConflict, "", "You already created this "+req.Type+" repo")
		return
	}
	s.repos[key(req.Type, id)] = &repo{private: req.Private, branches: map[string]map[string]*file{"main": {}}}
	writeJSON(w, map[string]any{"url": s.URL + "/" + map[string]string{"dataset": "datasets/", "model": ""}[req.Type] + id})
}

// serveWrite answers preupload, commit and settings for an existing repo.
func (s *Server) serveWrite(w http.ResponseWriter, r *http.Request, rp *repo, typ, id, seg, tail string) {
	if !writer(w, r) {
		return
	}
	if seg == "settings" {
		s.serveSettings(w, r, rp)
		return
	}
	if r.Method != http.MethodPost {
		hubError(w, http.StatusMethodNotAllowed, "", "POST only")
		return
	}
	branch := unescape(strings.TrimPrefix(tail, seg+"/"))
	s.mu.Lock()
	_, ok := rp.branches[branch]
	s.mu.Unlock()
	if !ok {
		hubError(w, http.StatusNotFound, "RevisionNotFound", "Invalid rev id: "+branch)
		return
	}
	if seg == "preupload" {
		servePreupload(w, r)
		return
	}
	s.serveCommit(w, r, rp, typ, id, branch)
}

// serveSettings answers PUT settings: gated or not.
func (s *Server) serveSettings(w http.ResponseWriter, r *http.Request, rp *repo) {
	var req struct {
		Gated any `json:"gated"`
	}
	if r.Method != http.MethodPut || json.NewDecoder(r.Body).Decode(&req) != nil {
		hubError(w, http.StatusBadRequest, "", "bad settings request")
		return
	}
	s.mu.Lock()
	rp.gated = req.Gated == "auto" || req.Gated == "manual"
	s.mu.Unlock()
	writeJSON(w, map[string]any{})
}

// servePreupload answers which upload mode each file takes: lfs for large
// files, Parquet and GGUF, regular otherwise.
func servePreupload(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Files []struct {
			Path   string `json:"path"`
			Sample string `json:"sample"`
			Size   int    `json:"size"`
		} `json:"files"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		hubError(w, http.StatusBadRequest, "", "bad preupload request")
		return
	}
	type mode struct {
		Path         string `json:"path"`
		UploadMode   string `json:"uploadMode"`
		ShouldIgnore bool   `json:"shouldIgnore"`
	}
	out := []mode{}
	for _, f := range req.Files {
		m := mode{Path: f.Path, UploadMode: "regular"}
		if f.Size >= LFSThreshold || strings.HasSuffix(f.Path, ".parquet") || strings.HasSuffix(f.Path, ".gguf") {
			m.UploadMode = "lfs"
		}
		out = append(out, m)
	}
	writeJSON(w, map[string]any{"files": out})
}

// serveCommit answers a commit to branch: it reads the NDJSON body and
// stores its files, or fails as an injected failure asks.
func (s *Server) serveCommit(w http.ResponseWriter, r *http.Request, rp *repo, typ, id, branch string) {
	if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		hubError(w, http.StatusBadRequest, "", "commit: Content-Type "+ct+", want application/x-ndjson")
		return
	}
	s.mu.Lock()
	fail := s.failing > 0
	if fail {
		s.failing--
	}
	s.mu.Unlock()
	if fail {
		hubError(w, http.StatusInternalServerError, "", "injected commit failure")
		return
	}
	c, puts, err := s.readCommit(r.Body)
	if err != nil {
		hubError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	for _, p := range puts {
		s.AddFile(typ, id, branch, p.path, p.data)
		if p.lfs {
			s.mu.Lock()
			f := s.repos[key(typ, id)].branches[branch][p.path]
			f.lfs = true
			h := sha256.Sum256(p.data)
			f.etag = hex.EncodeToString(h[:])
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	rp.commits = append(rp.commits, c)
	oid := commitOf(rp.branches[branch])
	s.mu.Unlock()
	writeJSON(w, map[string]any{"commitUrl": s.URL + "/commit/" + oid, "commitOid": oid})
}

// commitPut is one file a commit writes.
type commitPut struct {
	path string
	data []byte
	lfs  bool
}

// readCommit reads a commit's NDJSON: a header, then one line per file,
// inline (base64) or an LFS object already uploaded. Its error is the
// message of the 400 answer.
func (s *Server) readCommit(body io.Reader) (Commit, []commitPut, error) {
	dec := json.NewDecoder(body)
	var c Commit
	var puts []commitPut
	for i := 0; ; i++ {
		var line struct {
			Key   string          `json:"key"`
			Value json.RawMessage `json:"value"`
		}
		if err := dec.Decode(&line); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return c, nil, errors.New("commit: bad NDJSON: " + err.Error())
		}
		switch {
		case i == 0 && line.Key == "header":
			var h struct {
				Summary string `json:"summary"`
			}
			if json.Unmarshal(line.Value, &h) != nil || h.Summary == "" {
				return c, nil, errors.New("commit: header without summary")
			}
			c.Message = h.Summary
		case i > 0 && line.Key == "file":
			var f struct {
				Content  string `json:"content"`
				Path     string `json:"path"`
				Encoding string `json:"encoding"`
			}
			if json.Unmarshal(line.Value, &f) != nil || f.Encoding != "base64" || f.Path == "" {
				return c, nil, errors.New("commit: bad file line")
			}
			data, err := base64.StdEncoding.DecodeString(f.Content)
			if err != nil {
				return c, nil, errors.New("commit: bad base64 for " + f.Path)
			}
			if strings.HasPrefix(f.Path, "/") || strings.Contains("/"+f.Path+"/", "/../") || strings.Contains("/"+f.Path+"/", "/./") {
				return c, nil, errors.New("commit: invalid path " + f.Path)
			}
			puts = append(puts, commitPut{f.Path, data, false})
			c.Paths = append(c.Paths, f.Path)
		case i > 0 && line.Key == "lfsFile":
			var f struct {
				Path string `json:"path"`
				Algo string `json:"algo"`
				OID  string `json:"oid"`
				Size int    `json:"size"`
			}
			if json.Unmarshal(line.Value, &f) != nil || f.Algo != "sha256" || f.Path == "" {
				return c, nil, errors.New("commit: bad lfsFile line")
			}
			s.mu.Lock()
			data, ok := s.lfsObjs[f.OID]
			s.mu.Unlock()
			if !ok || len(data) != f.Size {
				return c, nil, errors.New("commit: LFS object " + f.OID + " of " + f.Path + " was not uploaded")
			}
			puts = append(puts, commitPut{f.Path, data, true})
			c.Paths = append(c.Paths, f.Path)
		default:
			return c, nil, fmt.Errorf("commit: unexpected line %d key %q", i, line.Key)
		}
	}
	if c.Message == "" || len(puts) == 0 {
		return c, nil, errors.New("commit: no header or no files")
	}
	return c, puts, nil
}

// serveLFSBatch is the Git LFS batch API (upload): objects already stored
// get no actions; others an upload href on this server and a verify href.
func (s *Server) serveLFSBatch(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		hubError(w, http.StatusMethodNotAllowed, "", "POST only")
		return
	}
	if !writer(w, r) {
		return
	}
	const lfsJSON = "application/vnd.git-lfs+json"
	if r.Header.Get("Content-Type") != lfsJSON || r.Header.Get("Accept") != lfsJSON {
		hubError(w, http.StatusNotAcceptable, "", "LFS batch: want "+lfsJSON)
		return
	}
	var req struct {
		Operation string `json:"operation"`
		HashAlgo  string `json:"hash_algo"`
		Objects   []struct {
			OID  string `json:"oid"`
			Size int    `json:"size"`
		} `json:"objects"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Operation != "upload" || req.HashAlgo != "sha256" {
		hubError(w, http.StatusBadRequest, "", "bad LFS batch request")
		return
	}
	var out []map[string]any
	s.mu.Lock()
	for _, o := range req.Objects {
		e := map[string]any{"oid": o.OID, "size": o.Size}
		if _, ok := s.lfsObjs[o.OID]; !ok {
			e["actions"] = map[string]any{
				"upload": map[string]any{"href": s.URL + "/lfs-upload/" + o.OID, "header": map[string]string{}},
				"verify": map[string]any{"href": s.URL + "/lfs-verify", "header": map[string]string{}},
			}
		}
		out = append(out, e)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", lfsJSON)
	json.NewEncoder(w).Encode(map[string]any{"transfer": "basic", "objects": out})
}

// serveLFSUpload stores a PUT object after checking its sha256.
func (s *Server) serveLFSUpload(w http.ResponseWriter, r *http.Request, oid string) {
	if r.Method != http.MethodPut {
		hubError(w, http.StatusMethodNotAllowed, "", "PUT only")
		return
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		hubError(w, http.StatusBadRequest, "", "LFS upload: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failLFS > 0 {
		s.failLFS--
		hubError(w, http.StatusInternalServerError, "", "injected LFS upload failure")
		return
	}
	h := sha256.Sum256(data)
	if hex.EncodeToString(h[:]) != oid {
		hubError(w, http.StatusBadRequest, "", "LFS upload: content does not match oid "+oid)
		return
	}
	s.lfsObjs[oid] = data
}

// serveLFSVerify checks an object was uploaded with the given size.
func (s *Server) serveLFSVerify(w http.ResponseWriter, r *http.Request) {
	var req struct {
		OID  string `json:"oid"`
		Size int    `json:"size"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
		hubError(w, http.StatusBadRequest, "", "bad LFS verify request")
		return
	}
	s.mu.Lock()
	data, ok := s.lfsObjs[req.OID]
	s.mu.Unlock()
	if !ok || len(data) != req.Size {
		hubError(w, http.StatusNotFound, "", "LFS verify: object "+req.OID+" not found")
		return
	}
	writeJSON(w, map[string]any{})
}
