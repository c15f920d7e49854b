package task

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

type entryView struct {
	Name, File string
	Kind       Kind
	Tags       []string
	ListItem   int
}

func registryView(r *Registry) []entryView {
	var out []entryView
	for _, e := range r.Entries() {
		out = append(out, entryView{e.Name, e.File, e.Kind, e.Tags, e.listItem})
	}
	return out
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func indexDir(t *testing.T, cacheDir, dir string) *Registry {
	t.Helper()
	r := NewRegistry()
	r.CacheDir = cacheDir
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestIndexCache checks that a cached index gives the registry a fresh one
// does, and that adding, changing or removing a file, or changing an
// included file outside the tree, is noticed.
func TestIndexCache(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tasks")
	outside := filepath.Join(root, "shared", "base.yaml")
	writeFile(t, outside, "tag: [shared_tag]\n")
	writeFile(t, filepath.Join(dir, "a.yaml"), "task: alpha\ntag: [t1, t2]\n")
	writeFile(t, filepath.Join(dir, "sub", "b.yaml"), "include: ../../shared/base.yaml\ntask: beta\n")
	writeFile(t, filepath.Join(dir, "g.yaml"), "group: grp\ntask: [alpha, beta]\n")
	writeFile(t, filepath.Join(dir, "l.yaml"), "tag: lt\ntask_list:\n  - one\n  - task: two\n    tag: x\n")
	writeFile(t, filepath.Join(dir, "bad.yaml"), "task: [unclosed\n")
	cache := filepath.Join(root, "cache")

	fresh := indexDir(t, "", dir)
	first := indexDir(t, cache, dir)
	if got, want := registryView(first), registryView(fresh); !reflect.DeepEqual(got, want) {
		t.Fatalf("indexing with a cache:\n got %v\nwant %v", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "index-*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	second := indexDir(t, cache, dir)
	if got, want := registryView(second), registryView(fresh); !reflect.DeepEqual(got, want) {
		t.Fatalf("from the cache:\n got %v\nwant %v", got, want)
	}
	if got, want := second.Warnings(), fresh.Warnings(); !reflect.DeepEqual(got, want) {
		t.Errorf("warnings from the cache %q, want %q", got, want)
	}
	if first.Fingerprint() == "" || first.Fingerprint() != second.Fingerprint() {
		t.Errorf("fingerprints %q, %q: want equal and set", first.Fingerprint(), second.Fingerprint())
	}

	// The cache is what the second registry read: tamper with it and the
	// tampered index shows (so the checks below test staleness).
	writeFile(t, files[0], `{"version":"`+indexCacheVersion+`","dir":"`+dir+`","records":[{"path":"a.yaml","cfg":{"task":"from_cache"}}]}`)
	if _, ok := indexDir(t, cache, dir).Lookup("from_cache"); !ok {
		t.Fatal("the index cache is not read")
	}

	later := time.Now().Add(time.Hour)
	steps := []struct {
		name string
		do   func()
		want string // a name the registry must now have
	}{
		{"changed file", func() {
			writeFile(t, filepath.Join(dir, "a.yaml"), "task: alpha2\ntag: [t1, t2]\n")
		}, "alpha2"},
		{"same size, new mtime", func() {
			writeFile(t, filepath.Join(dir, "a.yaml"), "task: alpha3\ntag: [t1, t2]\n")
			os.Chtimes(filepath.Join(dir, "a.yaml"), later, later)
		}, "alpha3"},
		{"added file", func() {
			writeFile(t, filepath.Join(dir, "deep", "er", "c.yaml"), "task: gamma\n")
		}, "gamma"},
		{"included file outside the tree", func() {
			writeFile(t, outside, "tag: [other_tag]\n")
		}, "other_tag"},
	}
	for _, s := range steps {
		s.do()
		r := indexDir(t, cache, dir)
		if _, ok := r.Lookup(s.want); !ok {
			t.Errorf("%s: %q not indexed (stale cache)", s.name, s.want)
		}
		if got, want := registryView(r), registryView(indexDir(t, "", dir)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", s.name, got, want)
		}
	}
	if err := os.Remove(filepath.Join(dir, "deep", "er", "c.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, ok := indexDir(t, cache, dir).Lookup("gamma"); ok {
		t.Error("removed file: gamma still indexed")
	}
}

// TestIndexCacheCorpus indexes lm-eval's task tree fresh and from the cache
// and compares the registries.
func TestIndexCacheCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/lm-eval not available")
	}
	if testing.Short() {
		t.Skip("indexes lm-eval's whole task tree")
	}
	cache := t.TempDir()
	fresh := indexDir(t, "", dir)
	indexDir(t, cache, dir)
	cached := indexDir(t, cache, dir)
	got, want := registryView(cached), registryView(fresh)
	if len(want) < 10000 {
		t.Fatalf("only %d entries", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("entry %d from the cache %v, fresh %v", i, got[i], want[i])
			}
		}
		t.Fatalf("%d entries from the cache, %d fresh", len(got), len(want))
	}
	if !reflect.DeepEqual(cached.Warnings(), fresh.Warnings()) {
		t.Errorf("warnings differ: %d from the cache, %d fresh", len(cached.Warnings()), len(fresh.Warnings()))
	}
}
