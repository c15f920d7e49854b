package hub

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/hub/hubtest"
)

func TestCreateRepoAndCommit(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := New(Options{Endpoint: s.URL, Token: hubtest.Token})
	if name, err := c.WhoAmI(ctx); err != nil || name != hubtest.User {
		t.Fatalf("WhoAmI = %q, %v", name, err)
	}
	repo := Repo{Type: Dataset, ID: "org/results-private"}
	for i := 0; i < 2; i++ { // the second time it exists: no error
		if err := c.CreateRepo(ctx, repo, true); err != nil {
			t.Fatalf("CreateRepo #%d: %v", i+1, err)
		}
	}
	if ok, private, _ := s.Repo("dataset", repo.ID); !ok || !private {
		t.Fatalf("repo exists=%v private=%v", ok, private)
	}
	files := []CommitFile{{Path: "m/results.json", Data: []byte(`{"a": "é<&>"}`)}, {Path: "m/empty.txt", Data: nil}}
	info, err := c.Commit(ctx, repo, "", "Adding results", files)
	if err != nil {
		t.Fatal(err)
	}
	if info.CommitOID == "" {
		t.Error("no commit oid")
	}
	for _, f := range files {
		got, ok := s.File("dataset", repo.ID, "", f.Path)
		if !ok || string(got) != string(f.Data) {
			t.Errorf("%s on the Hub = %q (%v), want %q", f.Path, got, ok, f.Data)
		}
	}
	if cs := s.Commits("dataset", repo.ID); len(cs) != 1 || cs[0].Message != "Adding results" || len(cs[0].Paths) != 2 {
		t.Errorf("commits = %+v", cs)
	}
	// A private repository is hidden from anyone else.
	anon := New(Options{Endpoint: s.URL, Token: "hf_other"})
	if _, err := anon.Info(ctx, repo, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Info of a private repo with another token: %v, want not found", err)
	}
	if err := c.SetGated(ctx, repo, "auto"); err != nil {
		t.Fatal(err)
	}
	if _, _, gated := s.Repo("dataset", repo.ID); !gated {
		t.Error("repository not gated")
	}
}

func TestCommitErrors(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := New(Options{Endpoint: s.URL, Token: hubtest.Token})
	repo := Repo{Type: Dataset, ID: "org/r"}
	if err := c.CreateRepo(ctx, repo, false); err != nil {
		t.Fatal(err)
	}
	s.FailCommits(1)
	if _, err := c.Commit(ctx, repo, "", "x", []CommitFile{{Path: "a.json", Data: []byte("{}")}}); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("commit during a Hub failure: %v", err)
	}
	if _, ok := s.File("dataset", repo.ID, "", "a.json"); ok {
		t.Error("a failed commit wrote its file")
	}
	noToken := New(Options{Endpoint: s.URL})
	noToken.token = ""
	if err := noToken.CreateRepo(ctx, Repo{Type: Dataset, ID: "org/x"}, false); err == nil || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Errorf("CreateRepo without a token: %v", err)
	}
	wrong := New(Options{Endpoint: s.URL, Token: "hf_wrong"})
	if err := wrong.CreateRepo(ctx, Repo{Type: Dataset, ID: "org/y"}, false); err == nil {
		t.Error("CreateRepo with a token that may not write succeeded")
	}
}

// bigFile is a file over the LFS threshold with varied content.
func bigFile() []byte {
	b := make([]byte, hubtest.LFSThreshold+12345)
	for i := range b {
		b[i] = byte(i*7 + i/1000)
	}
	return b
}

func TestCommitLFS(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := New(Options{Endpoint: s.URL, Token: hubtest.Token})
	repo := Repo{Type: Dataset, ID: "org/lfs"}
	if err := c.CreateRepo(ctx, repo, false); err != nil {
		t.Fatal(err)
	}
	big := bigFile()
	files := []CommitFile{{Path: "m/samples.jsonl", Data: big}, {Path: "m/results.json", Data: []byte("{}")}}
	if _, err := c.Commit(ctx, repo, "", "first", files); err != nil {
		t.Fatal(err)
	}
	got, ok := s.File("dataset", repo.ID, "", "m/samples.jsonl")
	if !ok || !bytes.Equal(got, big) {
		t.Fatalf("large file on the Hub: %d bytes (%v), want %d identical bytes", len(got), ok, len(big))
	}
	if got, ok := s.File("dataset", repo.ID, "", "m/results.json"); !ok || string(got) != "{}" {
		t.Errorf("small file on the Hub = %q (%v)", got, ok)
	}
	if n := s.Count("PUT", "/lfs-upload/"); n != 1 {
		t.Errorf("%d LFS uploads, want 1", n)
	}
	if n := s.Count("POST", "/lfs-verify"); n != 1 {
		t.Errorf("%d LFS verifies, want 1", n)
	}
	// The same object again, under another path: the Hub has it, no upload.
	if _, err := c.Commit(ctx, repo, "", "second", []CommitFile{{Path: "copy.jsonl", Data: big}}); err != nil {
		t.Fatal(err)
	}
	if n := s.Count("PUT", "/lfs-upload/"); n != 1 {
		t.Errorf("%d LFS uploads after committing a present object, want 1", n)
	}
	if got, ok := s.File("dataset", repo.ID, "", "copy.jsonl"); !ok || !bytes.Equal(got, big) {
		t.Errorf("copy on the Hub: %d bytes (%v)", len(got), ok)
	}
}

func TestCommitLFSUploadFailure(t *testing.T) {
	s := hubtest.New(t)
	s.Use(t)
	ctx := context.Background()
	c := New(Options{Endpoint: s.URL, Token: hubtest.Token})
	repo := Repo{Type: Dataset, ID: "org/lfsfail"}
	if err := c.CreateRepo(ctx, repo, false); err != nil {
		t.Fatal(err)
	}
	s.FailLFSUploads(1)
	_, err := c.Commit(ctx, repo, "", "x", []CommitFile{{Path: "big.jsonl", Data: bigFile()}})
	if err == nil || !strings.Contains(err.Error(), "LFS upload of big.jsonl") || !strings.Contains(err.Error(), "500") {
		t.Fatalf("commit with a failing LFS upload: %v", err)
	}
	if _, ok := s.File("dataset", repo.ID, "", "big.jsonl"); ok {
		t.Error("a failed LFS upload committed its file")
	}
	if n := s.Count("POST", "/commit/"); n != 0 {
		t.Errorf("%d commit requests after a failed upload, want 0", n)
	}
}
