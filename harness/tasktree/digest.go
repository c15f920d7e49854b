package tasktree

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Limits on what an archive may unpack to: lm_eval/tasks is about 15,000
// files and 70 MB.
const (
	maxFiles = 200000
	maxBytes = 2 << 30
)

// fileSum is one manifest line.
type fileSum struct {
	path string // slash-separated, relative to lm_eval/tasks
	size int64
	sum  string
}

// manifestPin hashes the manifest: one line "SHA256 SIZE PATH\n" per
// regular file, sorted by path (byte order).
func manifestPin(files []fileSum) Pin {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	h := sha256.New()
	p := Pin{Files: len(files)}
	for _, f := range files {
		fmt.Fprintf(h, "%s %d %s\n", f.sum, f.size, f.path)
		p.Bytes += f.size
	}
	p.SHA256 = hex.EncodeToString(h.Sum(nil))
	return p
}

// Digest is the content digest of a task tree (the lm_eval/tasks
// directory as fsys): its regular files (symbolic links and other special
// files are not counted), their total size, and the sha256 of the
// manifest of "SHA256 SIZE PATH" lines sorted by path. File modes and
// times do not count, so a git checkout and an unpacked archive of the
// same commit have the same digest.
func Digest(fsys fs.FS) (Pin, error) {
	var files []fileSum
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := fsys.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		files = append(files, fileSum{p, n, hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	if err != nil {
		return Pin{}, err
	}
	return manifestPin(files), nil
}

// unpack extracts lm_eval/tasks/ from a repository archive (a .tar.gz
// whose entries sit under one top directory, as GitHub's do) into
// dst/lm_eval/tasks, and returns its digest. Other entries are skipped;
// entries escaping the tree, and archives beyond the limits, are errors.
func unpack(archive, dst string) (Pin, error) {
	f, err := os.Open(archive)
	if err != nil {
		return Pin{}, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return Pin{}, fmt.Errorf("not a gzip archive: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	const prefix = "lm_eval/tasks/"
	var (
		files []fileSum
		total int64
	)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Pin{}, fmt.Errorf("reading the archive: %w", err)
		}
		name := strings.TrimPrefix(hdr.Name, "./")
		_, rest, ok := strings.Cut(name, "/") // the top directory
		if !ok || !strings.HasPrefix(rest, prefix) {
			continue
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(rest, prefix), "/")
		if rel == "" {
			continue
		}
		if clean := path.Clean(rel); clean != rel || strings.HasPrefix(clean, "../") || clean == ".." || path.IsAbs(clean) {
			return Pin{}, fmt.Errorf("archive entry %q leaves the task tree", hdr.Name)
		}
		target := filepath.Join(dst, "lm_eval", "tasks", filepath.FromSlash(rel))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return Pin{}, err
			}
		case tar.TypeReg:
			if len(files) >= maxFiles || total+hdr.Size > maxBytes {
				return Pin{}, fmt.Errorf("the archive's task tree exceeds %d files or %d bytes", maxFiles, int64(maxBytes))
			}
			sum, n, err := writeFile(target, tr)
			if err != nil {
				return Pin{}, fmt.Errorf("%s: %w", hdr.Name, err)
			}
			total += n
			files = append(files, fileSum{rel, n, sum})
		default:
			// Links and special files are not part of the digest.
		}
	}
	if len(files) == 0 {
		return Pin{}, fmt.Errorf("the archive has no lm_eval/tasks/ directory")
	}
	return manifestPin(files), nil
}

func writeFile(target string, r io.Reader) (sum string, n int64, err error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", 0, err
	}
	out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err = io.Copy(io.MultiWriter(out, h), r)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return hex.EncodeToString(h.Sum(nil)), n, err
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// ArchiveDigest is the digest of the lm_eval/tasks tree in a repository
// archive, unpacked into a temporary directory that is then removed.
func ArchiveDigest(archive string) (Pin, error) {
	tmp, err := os.MkdirTemp("", "tasktree-")
	if err != nil {
		return Pin{}, err
	}
	defer os.RemoveAll(tmp)
	return unpack(archive, tmp)
}
