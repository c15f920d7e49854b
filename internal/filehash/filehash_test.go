package filehash

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSHA256(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	data := []byte("some model bytes\n")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(data)
	if got, err := SHA256(context.Background(), path); err != nil || got != hex.EncodeToString(want[:]) {
		t.Errorf("SHA256 = %q, %v; want %x", got, err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SHA256(ctx, path); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := SHA256(context.Background(), filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("a missing file hashed")
	}
}
