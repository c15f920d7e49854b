// Package airgap carries what an evaluation needs from the network to a
// machine without it. On a connected machine, a Packer collects the cache
// files a run used — the Hugging Face cache entries of its datasets and
// model, lmeval's downloads of remote data files, lm-eval's task tree —
// into one archive; on the offline machine, Unpack puts them into that
// machine's caches, where the same command line then runs without the
// network (`lmeval pack` and `lmeval unpack`).
package airgap

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Roots are the cache directories of the machine at hand that an
// archive's entries come from or go to.
type Roots struct {
	// Hub is the Hugging Face hub cache (HF_HUB_CACHE, $HF_HOME/hub).
	Hub string
	// Downloads is lmeval's cache of files from outside the Hub (remote
	// data_files), beside it (hub.Client.DownloadsDir).
	Downloads string
	// Tasks is lmeval's cache of lm-eval's task trees
	// ($LMEVAL_CACHE_DIR/tasks).
	Tasks string
}

// The archive's top-level directories, one per root, and its manifest.
const (
	hubDir       = "hub"
	downloadsDir = "downloads"
	tasksDir     = "tasks"
	manifestName = "lmeval-pack.json"
)

// Manifest describes an archive; it is its first entry.
type Manifest struct {
	// Version is the archive format (1).
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Lmeval is the version of the lmeval that packed it.
	Lmeval string `json:"lmeval"`
	// Command is the run's command line (after "lmeval run"), for unpack
	// to show.
	Command []string `json:"command"`
	// Files and Bytes count the regular files packed.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// NotPacked lists what the run uses from this machine's own files
	// (include paths, local data files, a local model), which the offline
	// machine needs at the same paths.
	NotPacked []string `json:"not_packed,omitempty"`
}

// Packer collects cache files for an archive. Its Add method fits
// hub.Options.OnCacheFile.
type Packer struct {
	roots Roots
	files map[string]bool // absolute paths: files, symbolic links, trees' files
	repos map[string]bool // hub cache repositories whose refs and listings are in
	errs  []error
}

// NewPacker returns a Packer of files under roots.
func NewPacker(r Roots) *Packer {
	return &Packer{roots: r, files: map[string]bool{}, repos: map[string]bool{}}
}

// Add adds a file of the hub cache or the downloads. For the hub cache it
// adds what reading it offline needs: a snapshot entry's blob, and its
// repository's refs and lmeval's listings of its snapshots.
func (p *Packer) Add(file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		p.errs = append(p.errs, err)
		return
	}
	switch {
	case within(abs, p.roots.Downloads):
		p.files[abs] = true
	case within(abs, p.roots.Hub):
		rel, _ := filepath.Rel(p.roots.Hub, abs)
		repo := filepath.Join(p.roots.Hub, strings.Split(rel, string(filepath.Separator))[0])
		p.files[abs] = true
		if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if target, err := filepath.EvalSymlinks(abs); err == nil && within(target, repo) {
				p.files[target] = true
			}
		}
		if p.repos[repo] {
			return
		}
		p.repos[repo] = true
		// refs/ (branch -> commit) and lmeval's own listings in the
		// snapshots (.lmeval-*: file lists, Parquet manifests).
		filepath.WalkDir(repo, func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(repo, q)
			if strings.HasPrefix(rel, "refs"+string(filepath.Separator)) || strings.HasPrefix(d.Name(), ".lmeval-") {
				p.files[q] = true
			}
			return nil
		})
	default:
		p.errs = append(p.errs, fmt.Errorf("%s is in none of the caches packed (%s, %s)", abs, p.roots.Hub, p.roots.Downloads))
	}
}

// AddTree adds every file of dir, a task tree in the Tasks root.
func (p *Packer) AddTree(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if !within(abs, p.roots.Tasks) || abs == p.roots.Tasks {
		return fmt.Errorf("%s is not a task tree in %s", abs, p.roots.Tasks)
	}
	return filepath.WalkDir(abs, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			p.files[q] = true
		}
		return nil
	})
}

// within reports whether p is inside dir.
func within(p, dir string) bool {
	return dir != "" && strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator))
}

// Write writes the archive (gzipped tar): the manifest, then every file
// collected, under hub/, downloads/ or tasks/ as their root. It fills in
// m's counts and returns it.
func (p *Packer) Write(w io.Writer, m Manifest) (Manifest, error) {
	if err := errors.Join(p.errs...); err != nil {
		return m, err
	}
	names := map[string]string{} // archive name -> file
	for f := range p.files {
		name, ok := p.name(f)
		if !ok {
			return m, fmt.Errorf("%s is in no cache root", f)
		}
		names[name] = f
	}
	m.Version, m.Files, m.Bytes = 1, 0, 0
	for _, f := range names {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			m.Files++
			m.Bytes += fi.Size()
		}
	}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return m, err
	}
	if err := tw.WriteHeader(&tar.Header{Name: manifestName, Mode: 0o644, Size: int64(len(mb)), ModTime: m.Created, Typeflag: tar.TypeReg}); err != nil {
		return m, err
	}
	if _, err := tw.Write(mb); err != nil {
		return m, err
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if err := writeEntry(tw, name, names[name]); err != nil {
			return m, err
		}
	}
	if err := tw.Close(); err != nil {
		return m, err
	}
	return m, zw.Close()
}

// name is f's name in the archive.
func (p *Packer) name(f string) (string, bool) {
	for _, r := range []struct{ prefix, root string }{{hubDir, p.roots.Hub}, {downloadsDir, p.roots.Downloads}, {tasksDir, p.roots.Tasks}} {
		if within(f, r.root) {
			rel, _ := filepath.Rel(r.root, f)
			return r.prefix + "/" + filepath.ToSlash(rel), true
		}
	}
	return "", false
}

func writeEntry(tw *tar.Writer, name, file string) error {
	fi, err := os.Lstat(file)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(file)
		if err != nil {
			return err
		}
		return tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: filepath.ToSlash(target), Mode: 0o777, ModTime: fi.ModTime()})
	case fi.Mode().IsRegular():
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: fi.Size(), ModTime: fi.ModTime()}); err != nil {
			return err
		}
		_, err = io.Copy(tw, f)
		return err
	}
	return fmt.Errorf("%s: neither a file nor a symbolic link", file)
}

// Stats count what Unpack wrote.
type Stats struct {
	Files   int   // regular files written
	Skipped int   // blobs already there
	Bytes   int64 // bytes written
}

// Unpack puts an archive's files into roots and returns its manifest. It
// refuses entries outside the three roots, paths that climb out of them,
// and symbolic links anywhere but in the hub cache's snapshots pointing
// outside their repository. Content-addressed blobs already present are
// kept; everything else is replaced.
func Unpack(r io.Reader, roots Roots) (*Manifest, Stats, error) {
	var st Stats
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, st, fmt.Errorf("not an lmeval pack archive (gzip): %w", err)
	}
	tr := tar.NewReader(zr)
	var m *Manifest
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return m, st, err
		}
		if m == nil {
			if h.Name != manifestName {
				return nil, st, fmt.Errorf("not an lmeval pack archive: the first entry is %q, not %s", h.Name, manifestName)
			}
			m = &Manifest{}
			if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(m); err != nil {
				return nil, st, fmt.Errorf("%s: %w", manifestName, err)
			}
			if m.Version != 1 {
				return nil, st, fmt.Errorf("%s: format version %d; this lmeval reads version 1", manifestName, m.Version)
			}
			continue
		}
		dst, err := destination(h, roots)
		if err != nil {
			return m, st, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return m, st, err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return m, st, err
			}
		case tar.TypeSymlink:
			os.Remove(dst)
			if err := os.Symlink(filepath.FromSlash(h.Linkname), dst); err != nil {
				return m, st, err
			}
		case tar.TypeReg:
			if isBlob(h.Name) {
				if fi, err := os.Stat(dst); err == nil && fi.Size() == h.Size {
					st.Skipped++
					continue
				}
			}
			n, err := writeFile(dst, tr)
			if err != nil {
				return m, st, err
			}
			st.Files++
			st.Bytes += n
		}
	}
	if m == nil {
		return nil, st, errors.New("not an lmeval pack archive: it is empty")
	}
	return m, st, nil
}

// destination checks an entry and returns where it goes.
func destination(h *tar.Header, roots Roots) (string, error) {
	name := h.Name
	bad := func(why string) error { return fmt.Errorf("refused archive entry %q: %s", name, why) }
	if name == "" || path.IsAbs(name) || path.Clean(name) != strings.TrimSuffix(name, "/") || strings.Contains(name, `\`) {
		return "", bad("not a clean relative path")
	}
	top, rest, ok := strings.Cut(path.Clean(name), "/")
	if !ok || rest == "" {
		return "", bad("outside the archive's directories")
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == ".." || seg == "." {
			return "", bad("climbs out of its directory")
		}
	}
	var root string
	switch top {
	case hubDir:
		root = roots.Hub
	case downloadsDir:
		root = roots.Downloads
	case tasksDir:
		root = roots.Tasks
	default:
		return "", bad("not under hub/, downloads/ or tasks/")
	}
	switch h.Typeflag {
	case tar.TypeReg, tar.TypeDir:
	case tar.TypeSymlink:
		// Snapshot entries point at their repository's blobs, relatively.
		parts := strings.Split(rest, "/")
		if top != hubDir || len(parts) < 4 || parts[1] != "snapshots" || path.IsAbs(h.Linkname) {
			return "", bad("a symbolic link outside the hub cache's snapshots")
		}
		resolved := path.Join(path.Dir(rest), h.Linkname)
		if !strings.HasPrefix(resolved, parts[0]+"/") {
			return "", bad("a symbolic link out of its repository")
		}
	default:
		return "", bad("neither a file, a directory nor a symbolic link")
	}
	if root == "" {
		return "", bad("no directory to put it in")
	}
	return filepath.Join(root, filepath.FromSlash(rest)), nil
}

// isBlob reports whether an archive name is a hub cache blob (named by
// its content's hash).
func isBlob(name string) bool {
	parts := strings.Split(name, "/")
	return len(parts) == 4 && parts[0] == hubDir && parts[2] == "blobs"
}

// writeFile writes r to dst through a temporary file.
func writeFile(dst string, r io.Reader) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".unpack-*")
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(tmp, r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, fmt.Errorf("%s: %w", dst, err)
	}
	return n, nil
}
