// Package leaderboard holds documents for every dataset lm-eval's
// `leaderboard` group reads (data/, in each dataset's real schema, written
// by gen.py), what the real lm-eval reported for them (expected.json), and
// ServeHub, which puts them on a fake Hugging Face Hub under the real
// datasets' names so the leaderboard's own YAML runs unchanged in tests.
package leaderboard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/hub/hubtest"
)

// Dir is this package's directory (its data and expected.json).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// ServeHub starts a fake Hub serving data/ and points the environment
// (HF_ENDPOINT, a fresh HF_HOME) at it for the rest of the test: each
// config's splits as JSON Lines files that a dataset card names, as a
// repository without a Parquet conversion has them.
func ServeHub(t testing.TB) {
	t.Helper()
	data := filepath.Join(Dir(), "data")
	b, err := os.ReadFile(filepath.Join(data, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]map[string]map[string]string
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	srv := hubtest.New(t)
	for repo, configs := range manifest {
		files := map[string]map[string]hubtest.DataFile{}
		for cfg, splits := range configs {
			files[cfg] = map[string]hubtest.DataFile{}
			for split, rel := range splits {
				f, err := os.ReadFile(filepath.Join(data, rel))
				if err != nil {
					t.Fatal(err)
				}
				files[cfg][split] = hubtest.DataFile{Path: strings.TrimPrefix(rel, repo+"/"), Data: f}
			}
		}
		srv.AddDataset(repo, files)
	}
	srv.Use(t)
}
