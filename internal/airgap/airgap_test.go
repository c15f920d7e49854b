package airgap

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func roots(t *testing.T) Roots {
	d := t.TempDir()
	return Roots{Hub: filepath.Join(d, "hf", "hub"), Downloads: filepath.Join(d, "hf", "lmeval", "downloads"), Tasks: filepath.Join(d, "cache", "tasks")}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A snapshot entry, its blob, the repository's refs and listings, a
// download and a task tree go through an archive unchanged; unrelated
// files of the same caches stay behind.
func TestRoundTrip(t *testing.T) {
	a, b := roots(t), roots(t)
	repo := filepath.Join(a.Hub, "datasets--org--name")
	write(t, filepath.Join(repo, "blobs", "abc123"), "the data")
	write(t, filepath.Join(repo, "refs", "main"), "0123456789012345678901234567890123456789")
	snap := filepath.Join(repo, "snapshots", "0123456789012345678901234567890123456789")
	write(t, filepath.Join(snap, ".lmeval-files.json"), `[]`)
	os.MkdirAll(filepath.Join(snap, "data"), 0o755)
	if err := os.Symlink("../../../blobs/abc123", filepath.Join(snap, "data", "test.jsonl")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(a.Hub, "models--other--repo", "blobs", "x"), "not used")
	write(t, filepath.Join(a.Downloads, "0011", "remote.jsonl"), "downloaded")
	write(t, filepath.Join(a.Tasks, "commit", "lm_eval", "tasks", "t.yaml"), "task: t")
	write(t, filepath.Join(a.Tasks, "commit", ".lmeval-tree.json"), "{}")
	p := NewPacker(a)
	p.Add(filepath.Join(snap, "data", "test.jsonl"))
	p.Add(filepath.Join(a.Downloads, "0011", "remote.jsonl"))
	if err := p.AddTree(filepath.Join(a.Tasks, "commit")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m, err := p.Write(&buf, Manifest{Command: []string{"--tasks", "t"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Files != 6 {
		t.Errorf("packed %d files, want 6 (blob, ref, listing, download, two tree files)", m.Files)
	}
	got, st, err := Unpack(bytes.NewReader(buf.Bytes()), b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Command, " ") != "--tasks t" || st.Files != 6 {
		t.Errorf("manifest %+v, stats %+v", got, st)
	}
	for p, want := range map[string]string{
		filepath.Join(b.Hub, "datasets--org--name", "snapshots", "0123456789012345678901234567890123456789", "data", "test.jsonl"): "the data",
		filepath.Join(b.Hub, "datasets--org--name", "refs", "main"):                                                                "0123456789012345678901234567890123456789",
		filepath.Join(b.Downloads, "0011", "remote.jsonl"):                                                                         "downloaded",
		filepath.Join(b.Tasks, "commit", "lm_eval", "tasks", "t.yaml"):                                                             "task: t",
	} {
		if data, err := os.ReadFile(p); err != nil || string(data) != want {
			t.Errorf("%s: %q, %v", p, data, err)
		}
	}
	if _, err := os.Stat(filepath.Join(b.Hub, "models--other--repo")); err == nil {
		t.Error("an unused repository was packed")
	}
	// Again: the blob is kept.
	if _, st, err := Unpack(bytes.NewReader(buf.Bytes()), b); err != nil || st.Skipped != 1 {
		t.Errorf("second unpack: %+v, %v", st, err)
	}
}

func archive(t *testing.T, entries ...*tar.Header) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	m := []byte(`{"version": 1}`)
	tw.WriteHeader(&tar.Header{Name: manifestName, Mode: 0o644, Size: int64(len(m)), Typeflag: tar.TypeReg})
	tw.Write(m)
	for _, h := range entries {
		if h.Typeflag == tar.TypeReg {
			h.Size = 1
		}
		tw.WriteHeader(h)
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte("x"))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// Entries that would land outside the caches are refused.
func TestUnpackRefuses(t *testing.T) {
	for _, h := range []*tar.Header{
		{Name: "/etc/passwd", Typeflag: tar.TypeReg},
		{Name: "hub/../../escape", Typeflag: tar.TypeReg},
		{Name: "elsewhere/file", Typeflag: tar.TypeReg},
		{Name: "hub/models--a--b/snapshots/c/f", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "hub/models--a--b/snapshots/c/f", Typeflag: tar.TypeSymlink, Linkname: "../../../../models--x--y/blobs/z"},
		{Name: "tasks/t/link", Typeflag: tar.TypeSymlink, Linkname: "x"},
		{Name: "downloads/dev", Typeflag: tar.TypeChar},
	} {
		r := roots(t)
		_, _, err := Unpack(bytes.NewReader(archive(t, h)), r)
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s (%c -> %s): got %v, want a refusal", h.Name, h.Typeflag, h.Linkname, err)
		}
	}
	if _, _, err := Unpack(strings.NewReader("not gzip"), roots(t)); err == nil {
		t.Error("a file that is not an archive was accepted")
	}
}
