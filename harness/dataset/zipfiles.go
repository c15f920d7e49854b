package dataset

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lmeval/lmeval/hub"
)

// Data files inside zip archives: a data_files entry
// "zip://MEMBER::TARGET" (fsspec's chained URL, which datasets accepts)
// is the archive member MEMBER of the zip file TARGET, a URL (downloaded
// as other remote data files are) or a local path. lm-eval's SCROLLS
// tasks load their splits so, from the Hub repository's
// "<name>.zip".

// zipEntry splits "zip://MEMBER::TARGET"; ok is false for other entries.
func zipEntry(p string) (member, target string, ok bool) {
	rest, ok := strings.CutPrefix(p, "zip://")
	if !ok {
		return "", "", false
	}
	member, target, ok = strings.Cut(rest, "::")
	if !ok || member == "" || target == "" {
		return "", "", false
	}
	return strings.TrimPrefix(member, "/"), target, true
}

// zipMember extracts member from the zip file archive (once: the copy is
// kept beside the downloads, keyed by the archive's path and size) and
// returns the extracted file's path.
func zipMember(c *hub.Client, archive, member string) (string, error) {
	st, err := os.Stat(archive)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d\x00%s", archive, st.Size(), st.ModTime().UnixNano(), member)))
	dst := filepath.Join(c.DownloadsDir(), "unzipped", hex.EncodeToString(sum[:8]), path.Base(member))
	if _, err := os.Stat(dst); err == nil {
		return dst, nil
	}
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return "", fmt.Errorf("%s: %w", archive, err)
	}
	defer zr.Close()
	var f *zip.File
	for _, zf := range zr.File {
		if zf.Name == member {
			f = zf
			break
		}
	}
	if f == nil {
		return "", fmt.Errorf("%s has no member %s", archive, member)
	}
	rc, err := f.Open()
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", archive, member, err)
	}
	defer rc.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".unzip-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, rc); err != nil {
		tmp.Close()
		return "", fmt.Errorf("%s: %s: %w", archive, member, err)
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return dst, os.Rename(tmp.Name(), dst)
}

// localZipFile resolves a data_files entry that names a zip member to the
// extracted member, downloading the archive first when it is remote.
func localZipFile(ctx context.Context, c *hub.Client, entry string) (string, error) {
	member, target, _ := zipEntry(entry)
	archive := target
	if isRemote(target) {
		var err error
		if archive, err = c.DownloadURL(ctx, target); err != nil {
			return "", err
		}
	}
	return zipMember(c, archive, member)
}
