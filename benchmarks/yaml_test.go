package benchmarks

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/internal/plainyaml"
)

// upstreamDir is the unmodified sample of lm-eval's task YAML.
const upstreamDir = "../../shared/lm-eval-sample/tasks"

func needUpstream(t *testing.T) fs.FS {
	t.Helper()
	if _, err := os.Stat(upstreamDir); err != nil {
		t.Skipf("lm-eval sample not available (%v); ../shared is absent", err)
	}
	return os.DirFS(upstreamDir)
}

// plainYAML decodes a task file into Go values, with includes merged
// (the including file's keys win) and `!function x` as the string
// "!function x", to compare two YAML trees by meaning, not by text.
func plainYAML(fsys fs.FS, p string) (map[string]any, error) {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	v, err := plainyaml.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: top level is %T, want a mapping", p, v)
	}
	inc, ok := m["include"].(string)
	if !ok {
		return m, nil
	}
	delete(m, "include")
	base, err := plainYAML(fsys, path.Join(path.Dir(p), inc))
	if err != nil {
		return nil, err
	}
	for k, v := range m {
		base[k] = v
	}
	return base, nil
}

// TestYAMLMatchesUpstream checks every built-in YAML file against lm-eval's
// file of the same path: same keys, same values, same types (1.0 stays a
// float, 2 an int), includes resolved.
func TestYAMLMatchesUpstream(t *testing.T) {
	up := needUpstream(t)
	n := 0
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "yaml") {
			return err
		}
		n++
		ours, err := plainYAML(FS(), p)
		if err != nil {
			t.Error(err)
			return nil
		}
		theirs, err := plainYAML(up, p)
		if err != nil {
			t.Errorf("%s: no upstream counterpart: %v", p, err)
			return nil
		}
		if !reflect.DeepEqual(ours, theirs) {
			for k := range merge(ours, theirs) {
				if !reflect.DeepEqual(ours[k], theirs[k]) {
					t.Errorf("%s: %s = %#v, lm-eval has %#v", p, k, ours[k], theirs[k])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 57 MMLU subjects, their template and 5 group files, and 18 others.
	if n != 81 {
		t.Errorf("compared %d YAML files, want 81", n)
	}
}

func merge(a, b map[string]any) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

// TestEveryDirHasREADME checks that each task directory documents itself.
func TestEveryDirHasREADME(t *testing.T) {
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "yaml") {
			return err
		}
		dir := path.Dir(p)
		if _, err := fs.Stat(FS(), path.Join(dir, "README.md")); err != nil {
			t.Errorf("%s: no README.md in %s", p, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
