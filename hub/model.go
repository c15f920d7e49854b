package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ModelRef names GGUF model files on the Hub.
type ModelRef struct {
	Repo     string // owner/name
	Revision string // branch, tag or commit; "" means main
	File     string // path of the GGUF file in the repo; "" chooses by Tag
	Tag      string // quantization such as Q4_K_M; with File "" and Tag "", Q4_K_M then Q8_0 then the first GGUF
}

func (r ModelRef) String() string {
	s := r.Repo
	if r.Revision != "" {
		s += "@" + r.Revision
	}
	if r.File != "" {
		return "hf://" + s + "/" + r.File
	}
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	return s
}

var (
	repoIDRe  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*/[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	modelTag  = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	splitGGUF = regexp.MustCompile(`(?i)^(.+)-([0-9]{5})-of-([0-9]{5})\.gguf$`)
)

// ParseModelRef recognises the two Hub forms of a model reference:
//
//	hf://owner/repo[@revision]/path/to/file.gguf
//	owner/repo[:TAG]               (llama.cpp -hf style, TAG like Q4_K_M)
//
// It reports false for anything else, which is then a local path. A string of
// the second form that names an existing file or directory is also a local
// path.
func ParseModelRef(s string) (ModelRef, bool) {
	if rest, ok := strings.CutPrefix(s, "hf://"); ok {
		rest = strings.TrimPrefix(rest, "models/")
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) < 3 || parts[2] == "" {
			return ModelRef{}, false
		}
		name, rev, _ := strings.Cut(parts[1], "@")
		ref := ModelRef{Repo: parts[0] + "/" + name, Revision: rev, File: parts[2]}
		if !repoIDRe.MatchString(ref.Repo) || checkRelPath(ref.File) != nil {
			return ModelRef{}, false
		}
		return ref, true
	}
	if _, err := os.Stat(s); err == nil {
		return ModelRef{}, false
	}
	repo, tag, _ := strings.Cut(s, ":")
	if !repoIDRe.MatchString(repo) || strings.HasSuffix(strings.ToLower(repo), ".gguf") {
		return ModelRef{}, false
	}
	if tag != "" && !modelTag.MatchString(tag) {
		return ModelRef{}, false
	}
	return ModelRef{Repo: repo, Tag: tag}, true
}

// ResolveModel turns a model reference into a local GGUF path: Hub references
// (see ParseModelRef) are downloaded, with every part of a split model, and
// the path of the first part returned; anything else is returned unchanged.
func (c *Client) ResolveModel(ctx context.Context, s string) (string, error) {
	ref, ok := ParseModelRef(s)
	if !ok {
		return s, nil
	}
	paths, err := c.DownloadModel(ctx, ref)
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// DownloadModel fetches the GGUF file ref names, or picks it by tag from the
// repository's file list as llama.cpp does, together with the other parts of
// a split model (name-0000i-of-0000n.gguf). The first path is the one to load.
func (c *Client) DownloadModel(ctx context.Context, ref ModelRef) ([]string, error) {
	repo := Repo{Model, ref.Repo}
	rev := ref.Revision
	if rev == "" {
		rev = "main"
	}
	var files []string
	if ref.File != "" {
		files = splitParts(ref.File)
	} else {
		all, commit, err := c.modelFiles(ctx, repo, rev)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		best := bestModelFile(all, ref.Tag)
		if best == "" {
			var ggufs []string
			for _, f := range all {
				if strings.HasSuffix(strings.ToLower(f), ".gguf") {
					ggufs = append(ggufs, f)
				}
			}
			what := "no GGUF model file"
			if ref.Tag != "" {
				what = "no GGUF model file with tag " + ref.Tag
			}
			return nil, fmt.Errorf("%s: %s in the repository (GGUF files: %s): %w", ref, what, strings.Join(ggufs, ", "), ErrNotFound)
		}
		files = splitParts(best)
		rev = commit
	}
	paths := make([]string, len(files))
	for i, f := range files {
		p, err := c.Download(ctx, repo, rev, f)
		if err != nil {
			return nil, err
		}
		paths[i] = p
	}
	return paths, nil
}

// modelFiles lists the repository's files at rev and the commit it resolved
// to: from the Hub (refs, then the tree at that commit), or offline from the
// cached snapshot.
func (c *Client) modelFiles(ctx context.Context, repo Repo, rev string) ([]string, string, error) {
	if c.offline {
		info, err := c.Info(ctx, repo, rev)
		if err != nil {
			return nil, "", err
		}
		return info.Files(), info.SHA, nil
	}
	commit := rev
	if !IsCommit(rev) {
		refs, err := c.Refs(ctx, repo)
		if err != nil {
			if isNetworkError(err) {
				// The Hub is unreachable: what the cache knows will do.
				if files, commit, cerr := c.offlineCopy().modelFiles(ctx, repo, rev); cerr == nil {
					return files, commit, nil
				}
			}
			return nil, "", err
		}
		var ok bool
		if commit, ok = refs[rev]; !ok {
			return nil, "", fmt.Errorf("no branch %q: %w", rev, ErrNotFound)
		}
		if err := writeRef(c.RepoDir(repo), rev, commit); err != nil {
			return nil, "", err
		}
	}
	tree, err := c.Tree(ctx, repo, commit)
	if err != nil {
		return nil, "", err
	}
	files := make([]string, len(tree))
	for i, e := range tree {
		files[i] = e.Path
	}
	return files, commit, nil
}

// isModelGGUF excludes the GGUF side files llama.cpp never loads as the model.
func isModelGGUF(p string) bool {
	if !strings.HasSuffix(p, ".gguf") {
		return false
	}
	name := path0(p)
	for _, s := range []string{"mmproj", "imatrix", "mtp-", "eagle3-", "dflash-", "dspark-"} {
		if strings.Contains(name, s) {
			return false
		}
	}
	return true
}

// bestModelFile picks the file for tag the way llama.cpp's find_best_model
// does: the first model GGUF (in listing order) whose path contains the tag
// followed by '.' or '-', case-insensitively, skipping split parts other than
// the first; without a tag, Q4_K_M, then Q8_0, then the first model GGUF.
func bestModelFile(files []string, tag string) string {
	tags := []string{tag}
	if tag == "" {
		tags = []string{"Q4_K_M", "Q8_0"}
	}
	firstPart := func(f string) bool {
		m := splitGGUF.FindStringSubmatch(f)
		return m == nil || m[2] == "00001"
	}
	for _, t := range tags {
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(t) + "[.-]")
		for _, f := range files {
			if isModelGGUF(f) && re.MatchString(f) && firstPart(f) {
				return f
			}
		}
	}
	if tag == "" {
		for _, f := range files {
			if isModelGGUF(f) && firstPart(f) {
				return f
			}
		}
	}
	return ""
}

// splitParts lists every part of a split GGUF given any of its parts, or
// just the file itself when it is not split.
func splitParts(file string) []string {
	m := splitGGUF.FindStringSubmatch(file)
	if m == nil {
		return []string{file}
	}
	n, _ := strconv.Atoi(m[3])
	if n <= 1 {
		return []string{file}
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%s-%05d-of-%05d.gguf", m[1], i+1, n)
	}
	return parts
}

// ModelCacheDir is where ResolveModel puts the files of a model repository.
func (c *Client) ModelCacheDir(repoID string) string {
	return filepath.Join(c.cacheDir, Repo{Model, repoID}.folderName())
}
