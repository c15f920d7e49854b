package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedPath returns a file under ../shared (the project's read-only
// reference files), skipping the test when it is absent.
func sharedPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not available: %v", p, err)
	}
	return p
}

func storiesPath(t testing.TB) string { return sharedPath(t, "models/stories260K.gguf") }

// load loads a model for a test. Tests use one thread unless they say
// otherwise: the models are tiny, and OpenMP threads spinning on a busy
// machine make timings erratic.
func load(t testing.TB, path string, opts Options) *Model {
	t.Helper()
	if opts.Threads == 0 {
		opts.Threads = 1
	}
	m, err := Load(path, opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
