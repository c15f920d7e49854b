package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RepoInfo is the part of the Hub's repo API answer
// (GET /api/{models,datasets}/{repo}/revision/{rev}) lmeval uses.
type RepoInfo struct {
	ID       string         `json:"id"`
	SHA      string         `json:"sha"`
	Siblings []Sibling      `json:"siblings"`
	CardData map[string]any `json:"cardData"`
	Gated    any            `json:"gated"`
	Private  bool           `json:"private"`
}

// Sibling is a file of a repository, as the repo API lists it.
type Sibling struct {
	RFilename string `json:"rfilename"`
}

// filesManifest is where Info records a snapshot's file list in the cache.
const filesManifest = ".lmeval-files.json"

// Files lists the repository's file paths.
func (r *RepoInfo) Files() []string {
	out := make([]string, len(r.Siblings))
	for i, s := range r.Siblings {
		out[i] = s.RFilename
	}
	return out
}

// Info fetches the repository's metadata at revision ("" means main). In
// offline mode, or when the Hub cannot be reached, it is rebuilt from the
// cache: ID, SHA, and the file list recorded by an earlier online Info (else
// the files present in the snapshot).
func (c *Client) Info(ctx context.Context, repo Repo, revision string) (*RepoInfo, error) {
	if revision == "" {
		revision = "main"
	}
	if c.offline {
		commit, err := c.CachedCommit(repo, revision)
		if err != nil {
			return nil, err
		}
		snapshot := filepath.Join(c.RepoDir(repo), "snapshots", commit)
		info := &RepoInfo{ID: repo.ID, SHA: commit}
		if b, err := os.ReadFile(filepath.Join(snapshot, filesManifest)); err == nil {
			if err := json.Unmarshal(b, &info.Siblings); err == nil {
				return info, nil
			}
		}
		files, err := snapshotFiles(snapshot)
		if err != nil {
			return nil, fmt.Errorf("%s: no cached snapshot %s: %w", repo, commit, ErrOffline)
		}
		for _, f := range files {
			if !strings.HasPrefix(path0(f), ".lmeval-") {
				info.Siblings = append(info.Siblings, Sibling{f})
			}
		}
		return info, nil
	}
	var info RepoInfo
	if _, err := c.getJSON(ctx, c.apiURL(repo, "/revision/"+escapeRev(revision)), &info); err != nil {
		if isNetworkError(err) {
			if cached, cerr := c.offlineCopy().Info(ctx, repo, revision); cerr == nil {
				return cached, nil
			}
		}
		return nil, fmt.Errorf("%s@%s: %w", repo, revision, err)
	}
	if IsCommit(info.SHA) {
		if info.SHA != revision {
			if err := writeRef(c.RepoDir(repo), revision, info.SHA); err != nil {
				return nil, err
			}
		}
		// Remember the file list, so offline runs know what the revision has
		// beyond what was downloaded.
		b, _ := json.Marshal(info.Siblings)
		if err := writeFileAtomic(filepath.Join(c.RepoDir(repo), "snapshots", info.SHA, filesManifest), b); err != nil {
			return nil, err
		}
	}
	return &info, nil
}

// path0 is the last element of a slash path.
func path0(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// TreeEntry is one entry of the Hub's tree API.
type TreeEntry struct {
	Type string `json:"type"` // "file" or "directory"
	Path string `json:"path"`
	Size int64  `json:"size"`
	OID  string `json:"oid"`
	LFS  *struct {
		OID  string `json:"oid"`
		Size int64  `json:"size"`
	} `json:"lfs,omitempty"`
}

// Tree lists every file of the repository at revision, recursively
// (GET /api/{type}/{repo}/tree/{rev}?recursive=true, following pagination).
func (c *Client) Tree(ctx context.Context, repo Repo, revision string) ([]TreeEntry, error) {
	if revision == "" {
		revision = "main"
	}
	u := c.apiURL(repo, "/tree/"+escapeRev(revision)+"?recursive=true&expand=false")
	var out []TreeEntry
	for u != "" {
		var page []TreeEntry
		h, err := c.getJSON(ctx, u, &page)
		if err != nil {
			return nil, fmt.Errorf("%s@%s: listing files: %w", repo, revision, err)
		}
		for _, e := range page {
			if e.Type == "file" {
				out = append(out, e)
			}
		}
		u = nextLink(h)
	}
	return out, nil
}

// Refs is the commit each branch of the repository points to
// (GET /api/{type}/{repo}/refs).
func (c *Client) Refs(ctx context.Context, repo Repo) (map[string]string, error) {
	var body struct {
		Branches []struct {
			Name         string `json:"name"`
			TargetCommit string `json:"targetCommit"`
		} `json:"branches"`
	}
	if _, err := c.getJSON(ctx, c.apiURL(repo, "/refs"), &body); err != nil {
		return nil, fmt.Errorf("%s: listing branches: %w", repo, err)
	}
	refs := make(map[string]string)
	for _, b := range body.Branches {
		if IsCommit(b.TargetCommit) {
			refs[b.Name] = b.TargetCommit
		}
	}
	return refs, nil
}

// ParquetRevision is the branch the Hub keeps its Parquet conversion of a
// dataset on.
const ParquetRevision = "refs/convert/parquet"

// ParquetSplits lists the configs of the Hub's Parquet conversion of a
// dataset and the splits of each (GET /api/datasets/{repo}/parquet). In
// offline mode it lists what a previous DownloadParquet cached.
func (c *Client) ParquetSplits(ctx context.Context, dataset string) (map[string][]string, error) {
	repo := Repo{Dataset, dataset}
	out := make(map[string][]string)
	if c.offline {
		commit, err := c.CachedCommit(repo, ParquetRevision)
		if err != nil {
			return nil, err
		}
		manifests, _ := filepath.Glob(filepath.Join(c.RepoDir(repo), "snapshots", commit, "*", ".lmeval-parquet-*.json"))
		for _, m := range manifests {
			config := filepath.Base(filepath.Dir(m))
			split := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m), ".lmeval-parquet-"), ".json")
			out[config] = append(out[config], split)
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: no cached Parquet conversion: %w", repo, ErrOffline)
		}
	} else {
		var listing map[string]map[string][]string
		if _, err := c.getJSON(ctx, c.apiURL(repo, "/parquet"), &listing); err != nil {
			if isNetworkError(err) {
				if cached, cerr := c.offlineCopy().ParquetSplits(ctx, dataset); cerr == nil {
					return cached, nil
				}
			}
			return nil, fmt.Errorf("%s: listing the Parquet conversion: %w", repo, err)
		}
		for config, splits := range listing {
			for split := range splits {
				out[config] = append(out[config], split)
			}
		}
	}
	for _, s := range out {
		sort.Strings(s)
	}
	return out, nil
}

// parquetManifest records which files make up a cached split of the Parquet
// conversion, so offline runs can tell a complete split from a partial one.
type parquetManifest struct {
	Files []string `json:"files"` // paths in the repo at ParquetRevision
}

func manifestPath(snapshot, config, split string) string {
	return filepath.Join(snapshot, filepath.FromSlash(config), ".lmeval-parquet-"+url.PathEscape(split)+".json")
}

// DownloadParquet fetches the Parquet files of one config and split of the
// Hub's conversion of a dataset (GET /api/datasets/{repo}/parquet/{config}/{split},
// then each file, which the Hub redirects to refs/convert/parquet) and
// returns their cached paths in order. Offline, it returns the cached files
// or an error wrapping ErrOffline that lists the missing ones.
func (c *Client) DownloadParquet(ctx context.Context, dataset, config, split string) ([]string, error) {
	repo := Repo{Dataset, dataset}
	what := fmt.Sprintf("%s config %q split %q", repo, config, split)
	if c.offline {
		return c.cachedParquet(repo, config, split, what)
	}
	var urls []string
	u := c.apiURL(repo, "/parquet/"+url.PathEscape(config)+"/"+url.PathEscape(split))
	if _, err := c.getJSON(ctx, u, &urls); err != nil {
		if isNetworkError(err) {
			if cached, cerr := c.cachedParquet(repo, config, split, what); cerr == nil {
				return cached, nil
			}
		}
		return nil, fmt.Errorf("%s: listing Parquet files: %w", what, err)
	}
	if len(urls) == 0 {
		return nil, fmt.Errorf("%s: the Parquet conversion lists no files: %w", what, ErrNotFound)
	}
	paths := make([]string, len(urls))
	man := parquetManifest{Files: make([]string, len(urls))}
	snapshot := ""
	for i, fu := range urls {
		p, err := c.download(ctx, repo, fu, "", "")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		paths[i] = p
		snap, rel, err := splitSnapshotPath(c.RepoDir(repo), p)
		if err != nil {
			return nil, err
		}
		if snapshot != "" && snap != snapshot {
			return nil, fmt.Errorf("%s: the conversion changed while downloading (commits %s and %s); retry", what, filepath.Base(snapshot), filepath.Base(snap))
		}
		snapshot, man.Files[i] = snap, rel
	}
	b, _ := json.Marshal(man)
	if err := writeFileAtomic(manifestPath(snapshot, config, split), b); err != nil {
		return nil, err
	}
	return paths, nil
}

func (c *Client) cachedParquet(repo Repo, config, split, what string) ([]string, error) {
	commit, err := c.CachedCommit(repo, ParquetRevision)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	snapshot := filepath.Join(c.RepoDir(repo), "snapshots", commit)
	mp := manifestPath(snapshot, config, split)
	b, err := os.ReadFile(mp)
	if err != nil {
		return nil, fmt.Errorf("%s was never downloaded (no %s): %w", what, mp, ErrOffline)
	}
	var man parquetManifest
	if err := json.Unmarshal(b, &man); err != nil {
		return nil, fmt.Errorf("%s: corrupt cache manifest %s: %w", what, mp, err)
	}
	var paths, missing []string
	for _, f := range man.Files {
		p := filepath.Join(snapshot, filepath.FromSlash(f))
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
		paths = append(paths, c.used(p))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: missing from the cache: %s: %w", what, strings.Join(missing, ", "), ErrOffline)
	}
	return paths, nil
}

// splitSnapshotPath splits a cached path into its snapshot directory and the
// slash path inside it.
func splitSnapshotPath(repoDir, p string) (snapshot, rel string, err error) {
	r, err := filepath.Rel(filepath.Join(repoDir, "snapshots"), p)
	if err != nil {
		return "", "", err
	}
	commit, rest, ok := strings.Cut(filepath.ToSlash(r), "/")
	if !ok {
		return "", "", errors.New("not a snapshot path: " + p)
	}
	return filepath.Join(repoDir, "snapshots", commit), rest, nil
}

// offlineCopy is the client reading only its cache, used when the Hub cannot
// be reached.
func (c *Client) offlineCopy() *Client {
	cc := *c
	cc.offline = true
	return &cc
}
