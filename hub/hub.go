// Package hub is a small client for the Hugging Face Hub: it lists and
// downloads the files of model and dataset repositories into the cache layout
// huggingface_hub uses ($HF_HOME/hub/{models,datasets}--owner--name/{blobs,
// snapshots,refs}), lists the Hub's Parquet conversion of datasets, and
// resolves GGUF model references the way llama.cpp's -hf flag does.
//
// Downloads are written to a temporary file and renamed, resumed with HTTP
// Range requests after an interruption, verified against the size and hash the
// Hub announces, and serialised across processes with a file lock, so several
// runs sharing a cache never see a partial file.
package hub

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultEndpoint is the public Hub, used when neither Options.Endpoint nor
// HF_ENDPOINT is set.
const DefaultEndpoint = "https://huggingface.co"

// RepoType says whether a repository holds a model or a dataset; the Hub keeps
// them in separate namespaces.
type RepoType string

// Repository types.
const (
	Model   RepoType = "model"
	Dataset RepoType = "dataset"
)

// Repo names a repository on the Hub. ID is "owner/name", or a bare legacy
// name such as "hellaswag" that the Hub redirects to its namespaced home.
type Repo struct {
	Type RepoType
	ID   string
}

func (r Repo) String() string {
	if r.Type == Dataset {
		return "dataset " + r.ID
	}
	return "model " + r.ID
}

// urlPrefix is the path segment the Hub puts before the repo id in file URLs.
func (r Repo) urlPrefix() string {
	if r.Type == Dataset {
		return "datasets/"
	}
	return ""
}

// apiPrefix is the API collection of the repo type.
func (r Repo) apiPrefix() string {
	if r.Type == Dataset {
		return "api/datasets/"
	}
	return "api/models/"
}

// folderName is the repo's cache folder, as huggingface_hub names it.
func (r Repo) folderName() string {
	kind := "models"
	if r.Type == Dataset {
		kind = "datasets"
	}
	return kind + "--" + strings.ReplaceAll(r.ID, "/", "--")
}

// Options configures a Client. Zero fields are taken from the environment
// the way huggingface_hub reads it.
type Options struct {
	// Endpoint is the Hub's base URL (HF_ENDPOINT; default DefaultEndpoint).
	Endpoint string
	// Token is sent as a Bearer token (HF_TOKEN, else the file $HF_HOME/token).
	Token string
	// CacheDir is the hub cache (HF_HUB_CACHE, else $HF_HOME/hub, HF_HOME
	// defaulting to $XDG_CACHE_HOME/huggingface or ~/.cache/huggingface).
	CacheDir string
	// Offline uses only the cache (also set by HF_HUB_OFFLINE=1).
	Offline bool
	// Progress receives download progress bars; nil shows none.
	Progress io.Writer
	// HTTPClient is used for every request; nil means a client with sane
	// timeouts.
	HTTPClient *http.Client
	// OnCacheFile, when set, is called with every file of the cache the
	// client hands out (downloaded or found there): what `lmeval pack`
	// packs.
	OnCacheFile func(path string)
}

// Client talks to one Hub endpoint and caches into one directory. It is safe
// for concurrent use.
type Client struct {
	endpoint string
	token    string
	cacheDir string
	offline  bool
	progress io.Writer
	http     *http.Client
	// retryDelay is the pause before the first retry of an interrupted
	// download; it doubles on each further retry.
	retryDelay time.Duration
	onFile     func(path string)
}

// used reports a cache file handed out (Options.OnCacheFile).
func (c *Client) used(p string) string {
	if c.onFile != nil {
		c.onFile(p)
	}
	return p
}

// New returns a client configured by opts, completed from the environment.
func New(opts Options) *Client {
	c := &Client{
		endpoint:   strings.TrimRight(firstNonEmpty(opts.Endpoint, os.Getenv("HF_ENDPOINT"), DefaultEndpoint), "/"),
		token:      opts.Token,
		cacheDir:   opts.CacheDir,
		offline:    opts.Offline || envTrue("HF_HUB_OFFLINE"),
		progress:   opts.Progress,
		http:       opts.HTTPClient,
		retryDelay: 200 * time.Millisecond,
		onFile:     opts.OnCacheFile,
	}
	home := HFHome()
	if c.token == "" {
		c.token = os.Getenv("HF_TOKEN")
	}
	if c.token == "" {
		if b, err := os.ReadFile(filepath.Join(home, "token")); err == nil {
			c.token = strings.TrimSpace(string(b))
		}
	}
	if c.cacheDir == "" {
		c.cacheDir = firstNonEmpty(os.Getenv("HF_HUB_CACHE"), filepath.Join(home, "hub"))
	}
	if c.http == nil {
		c.http = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			ResponseHeaderTimeout: 60 * time.Second,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   20 * time.Second,
		}}
	}
	return c
}

// HFHome is the Hugging Face home directory: $HF_HOME, else
// $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface.
func HFHome() string {
	if h := os.Getenv("HF_HOME"); h != "" {
		return h
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "huggingface")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "huggingface")
}

// Endpoint is the Hub base URL the client uses.
func (c *Client) Endpoint() string { return c.endpoint }

// CacheDir is the hub cache directory the client downloads into.
func (c *Client) CacheDir() string { return c.cacheDir }

// Offline reports whether the client only reads the cache.
func (c *Client) Offline() bool { return c.offline }

// RepoDir is the cache folder of repo.
func (c *Client) RepoDir(repo Repo) string {
	return filepath.Join(c.cacheDir, repo.folderName())
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func envTrue(name string) bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(name))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Errors returned (wrapped) by the client; test them with errors.Is.
var (
	// ErrGated: the Hub refused access (401/403); a token is missing or lacks
	// access to a gated or private repository.
	ErrGated = errors.New("access denied (gated or private repository): set HF_TOKEN to a token with access")
	// ErrNotFound: the repository, revision or file does not exist.
	ErrNotFound = errors.New("not found on the Hub")
	// ErrOffline: offline mode and what is asked for is not in the cache.
	ErrOffline = errors.New("not in the cache and offline mode is on (HF_HUB_OFFLINE=1)")
	// ErrChecksum: a downloaded file does not match the size or hash the Hub
	// announced.
	ErrChecksum = errors.New("downloaded file does not match the Hub's checksum")
)

// StatusError is an unexpected HTTP status from the Hub.
type StatusError struct {
	Method string
	URL    string
	Status int
	// Code is the Hub's X-Error-Code header: RepoNotFound, GatedRepo,
	// EntryNotFound, RevisionNotFound, ...
	Code string
	// Message is the Hub's X-Error-Message header or JSON "error" field.
	Message string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s %s: HTTP %d", e.Method, e.URL, e.Status)
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Unwrap maps the status to ErrGated or ErrNotFound where it means that. The
// Hub answers 401 RepoNotFound for a repository that does not exist (or that
// the token cannot see): that is reported as not found.
func (e *StatusError) Unwrap() error {
	switch e.Code {
	case "RepoNotFound", "EntryNotFound", "RevisionNotFound":
		return ErrNotFound
	case "GatedRepo":
		return ErrGated
	}
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return ErrGated
	case http.StatusNotFound:
		return ErrNotFound
	}
	return nil
}
