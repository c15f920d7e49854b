package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/hub/hubtest"
)

func parquetBytes(t testing.TB, rows []fixtureRow) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fakeHub serves:
//   - allenai/ai2_arc: Parquet conversion, configs ARC-Easy (test in two
//     shards, train) and ARC-Challenge;
//   - hellaswag, the legacy name of Rowan/hellaswag, whose repo has only a
//     loading script but the Hub converted it;
//   - acme/jsonl: no conversion, data files at the root and a pinned v1
//     branch with different content;
//   - acme/carded: no conversion, a dataset card with configs;
//   - acme/script: a loading script and nothing else;
//   - acme/gated: gated.
func fakeHub(t *testing.T) *hubtest.Server {
	srv := hubtest.New(t)
	rows := fixtureRows()
	srv.AddParquet("allenai/ai2_arc", "ARC-Easy", "test", parquetBytes(t, rows[:2]), parquetBytes(t, rows[2:]))
	srv.AddParquet("allenai/ai2_arc", "ARC-Easy", "train", parquetBytes(t, rows[1:2]))
	srv.AddParquet("allenai/ai2_arc", "ARC-Challenge", "test", parquetBytes(t, rows[:1]))
	srv.AddFile("dataset", "allenai/ai2_arc", "", "README.md", []byte("# arc\n"))

	srv.AddFile("dataset", "Rowan/hellaswag", "", "hellaswag.py", []byte("import datasets\n"))
	srv.AddParquet("Rowan/hellaswag", "default", "validation", parquetBytes(t, rows[2:]))
	srv.AddAlias("hellaswag", "Rowan/hellaswag")

	srv.AddFile("dataset", "acme/jsonl", "", "train.jsonl", []byte(`{"v": "main-train"}`+"\n"))
	srv.AddFile("dataset", "acme/jsonl", "", "test.jsonl", []byte(`{"v": "main-test", "n": 1}`+"\n"+`{"v": "main-test-2", "n": 2.5}`+"\n"))
	srv.AddFile("dataset", "acme/jsonl", "", "extra/validation.jsonl", []byte(`{"v": "main-validation"}`+"\n"))
	srv.AddFile("dataset", "acme/jsonl", "v1", "test.jsonl", []byte(`{"v": "v1-test"}`+"\n"))

	srv.AddFile("dataset", "acme/carded", "", "README.md", []byte("---\nconfigs:\n- config_name: main\n  data_files:\n  - split: test\n    path: data/test-*.csv\n---\n"))
	srv.AddFile("dataset", "acme/carded", "", "data/test-0.csv", []byte("q,a\nx,1\n"))
	srv.AddFile("dataset", "acme/carded", "", "data/test-1.csv", []byte("q,a\ny,2\n"))

	srv.AddFile("dataset", "acme/script", "", "script.py", []byte("import datasets\n"))
	srv.AddFile("dataset", "acme/script", "", "README.md", []byte("# script\n"))

	srv.AddParquet("acme/gated", "default", "test", parquetBytes(t, rows[:1]))
	srv.SetGated("dataset", "acme/gated")
	return srv
}

func vs(d []map[string]any) []string {
	var out []string
	for _, m := range d {
		out = append(out, m["v"].(string))
	}
	return out
}

func TestHubDatasets(t *testing.T) {
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HUB_OFFLINE", "")
	t.Setenv("HF_HOME", t.TempDir())
	srv := fakeHub(t)
	cache := t.TempDir()
	opts := Options{Endpoint: srv.URL, CacheDir: cache}
	ctx := context.Background()
	rows := fixtureRows()

	got, err := Load(ctx, Spec{Path: "allenai/ai2_arc", Name: "ARC-Easy"}, "test", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d documents, want 3 (two shards)", len(got))
	}
	for i, r := range rows {
		if !reflect.DeepEqual(got[i], expected(r)) {
			t.Errorf("document %d:\n got %#v\nwant %#v", i, got[i], expected(r))
		}
	}
	if ch := got[0]["choices"].(map[string]any)["text"].([]any)[2]; ch != "Planetary days will become shorter." {
		t.Errorf("choices.text[2] = %v", ch)
	}

	splitTests := []struct {
		spec Spec
		want []string
	}{
		{Spec{Path: "allenai/ai2_arc", Name: "ARC-Easy"}, []string{"test", "train"}},
		{Spec{Path: "allenai/ai2_arc", Name: "ARC-Challenge"}, []string{"test"}},
		{Spec{Path: "hellaswag"}, []string{"validation"}},
		{Spec{Path: "acme/jsonl"}, []string{"test", "train", "validation"}},
		{Spec{Path: "acme/jsonl", Kwargs: map[string]any{"revision": "v1"}}, []string{"test"}},
		{Spec{Path: "acme/carded", Name: "main"}, []string{"test"}},
	}
	for _, tc := range splitTests {
		s, err := Splits(ctx, tc.spec, opts)
		if err != nil || !reflect.DeepEqual(s, tc.want) {
			t.Errorf("Splits(%s %v) = %v, %v; want %v", tc.spec, tc.spec.Kwargs, s, err, tc.want)
		}
	}

	got, err = Load(ctx, Spec{Path: "hellaswag"}, "validation", opts)
	if err != nil || len(got) != 1 || got[0]["id"] != "Q3" {
		t.Errorf("legacy name through the conversion: %v, %v", got, err)
	}

	got, err = Load(ctx, Spec{Path: "acme/jsonl"}, "test", opts)
	if err != nil || !reflect.DeepEqual(vs(got), []string{"main-test", "main-test-2"}) {
		t.Errorf("repo files: %v, %v", got, err)
	}
	if err == nil && got[0]["n"] != 1.0 {
		t.Errorf("n = %#v, want 1.0 (the column mixes ints and floats)", got[0]["n"])
	}
	got, err = Load(ctx, Spec{Path: "acme/jsonl", Kwargs: map[string]any{"revision": "v1"}}, "test", opts)
	if err != nil || !reflect.DeepEqual(vs(got), []string{"v1-test"}) {
		t.Errorf("pinned revision: %v, %v", got, err)
	}
	got, err = Load(ctx, Spec{Path: "acme/jsonl", Kwargs: map[string]any{"data_files": map[string]any{"eval": "train.jsonl"}}}, "eval", opts)
	if err != nil || !reflect.DeepEqual(vs(got), []string{"main-train"}) {
		t.Errorf("data_files in a Hub repo: %v, %v", got, err)
	}
	got, err = Load(ctx, Spec{Path: "acme/carded", Name: "main"}, "test", opts)
	want := docs(map[string]any{"q": "x", "a": int64(1)}, map[string]any{"q": "y", "a": int64(2)})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("dataset card configs: %v, %v; want %v", got, err, want)
	}

	errTests := []struct {
		name  string
		spec  Spec
		split string
		is    error
		want  string
	}{
		{"gated", Spec{Path: "acme/gated"}, "test", hub.ErrGated, "dataset acme/gated is gated: set HF_TOKEN"},
		{"missing repo", Spec{Path: "acme/nothing"}, "test", hub.ErrNotFound, "dataset acme/nothing not found"},
		{"script only", Spec{Path: "acme/script"}, "test", nil, "exists only as a Python loading script"},
		{"missing split", Spec{Path: "allenai/ai2_arc", Name: "ARC-Challenge"}, "validation", nil, `no split "validation" in config "ARC-Challenge" (splits: test)`},
		{"missing config", Spec{Path: "allenai/ai2_arc", Name: "ARC-Medium"}, "test", nil, "configs: ARC-Challenge, ARC-Easy"},
		{"several configs", Spec{Path: "allenai/ai2_arc"}, "test", nil, "set dataset_name to one of ARC-Challenge, ARC-Easy"},
		{"missing revision", Spec{Path: "acme/jsonl", Kwargs: map[string]any{"revision": "v9"}}, "test", hub.ErrNotFound, "v9"},
	}
	for _, tc := range errTests {
		_, err := Load(ctx, tc.spec, tc.split, opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: err = %v, want %q (errors.Is %v)", tc.name, err, tc.want, tc.is)
		}
	}
	if _, err := Load(ctx, Spec{Path: "acme/gated"}, "test", Options{Endpoint: srv.URL, CacheDir: cache, Token: hubtest.Token}); err != nil {
		t.Errorf("gated with the token: %v", err)
	}

	// Offline: what was loaded before comes from the cache, without a request.
	before := len(srv.Requests())
	off := Options{Endpoint: srv.URL, CacheDir: cache, Offline: true}
	offTests := []struct {
		spec  Spec
		split string
		n     int
	}{
		{Spec{Path: "allenai/ai2_arc", Name: "ARC-Easy"}, "test", 3},
		{Spec{Path: "hellaswag"}, "validation", 1},
		{Spec{Path: "acme/jsonl"}, "test", 2},
		{Spec{Path: "acme/jsonl", Kwargs: map[string]any{"revision": "v1"}}, "test", 1},
		{Spec{Path: "acme/carded", Name: "main"}, "test", 2},
	}
	for _, tc := range offTests {
		got, err := Load(ctx, tc.spec, tc.split, off)
		if err != nil || len(got) != tc.n {
			t.Errorf("offline %s %v: %d docs, %v; want %d", tc.spec, tc.spec.Kwargs, len(got), err, tc.n)
		}
	}
	_, err = Load(ctx, Spec{Path: "allenai/ai2_arc", Name: "ARC-Easy"}, "train", off)
	if !errors.Is(err, hub.ErrOffline) || !strings.Contains(err.Error(), `split "train"`) {
		t.Errorf("offline, split never loaded: err = %v, want ErrOffline naming it", err)
	}
	_, err = Load(ctx, Spec{Path: "acme/jsonl"}, "validation", off)
	if !errors.Is(err, hub.ErrOffline) || !strings.Contains(err.Error(), "extra/validation.jsonl") {
		t.Errorf("offline, repo file never downloaded: err = %v, want ErrOffline naming extra/validation.jsonl", err)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("offline loading made %d requests", n)
	}
	// The conversion's files sit in the huggingface_hub layout.
	commit := srv.Commit("dataset", "allenai/ai2_arc", "refs/convert/parquet")
	p := filepath.Join(cache, "datasets--allenai--ai2_arc", "snapshots", commit, "ARC-Easy", "test", "0001.parquet")
	if _, err := os.Stat(p); err != nil {
		t.Errorf("cached shard not at %s: %v", p, err)
	}
}

func TestRemoteDataFiles(t *testing.T) {
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	srv := fakeHub(t)
	cache := filepath.Join(t.TempDir(), "hub")
	opts := Options{Endpoint: srv.URL, CacheDir: cache}
	ctx := context.Background()
	resolve := srv.URL + "/datasets/acme/jsonl/resolve/main/test.jsonl"
	plain := srv.URL + srv.CDNPath("dataset", "acme/jsonl", "", "train.jsonl") // not a Hub file URL
	spec := Spec{Path: "json", Kwargs: map[string]any{"data_files": map[string]any{
		"test":  resolve,
		"train": []any{plain, "hf://datasets/acme/jsonl@v1/test.jsonl"},
	}}}
	got, err := Load(ctx, spec, "test", opts)
	if err != nil || !reflect.DeepEqual(vs(got), []string{"main-test", "main-test-2"}) {
		t.Errorf("resolve URL: %v, %v", got, err)
	}
	got, err = Load(ctx, spec, "train", opts)
	if err != nil || !reflect.DeepEqual(vs(got), []string{"main-train", "v1-test"}) {
		t.Errorf("plain URL and hf:// path: %v, %v", got, err)
	}
	commit := srv.Commit("dataset", "acme/jsonl", "main")
	if _, err := os.Stat(filepath.Join(cache, "datasets--acme--jsonl", "snapshots", commit, "test.jsonl")); err != nil {
		t.Errorf("resolve URL not cached in the hub layout: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(cache), "lmeval", "downloads", "[0-9a-f]*", "*"))
	if len(matches) != 1 {
		t.Errorf("plain URL downloads: %v, want one file under lmeval/downloads", matches)
	}
	before := len(srv.Requests())
	if _, err := Load(ctx, spec, "train", Options{Endpoint: srv.URL, CacheDir: cache, Offline: true}); err != nil {
		t.Errorf("offline, remote data files cached: %v", err)
	}
	if len(srv.Requests()) != before {
		t.Error("offline load of cached remote data files made requests")
	}
	_, err = Load(ctx, Spec{Path: "json", Kwargs: map[string]any{"data_files": srv.URL + "/datasets/acme/jsonl/resolve/main/*.jsonl"}}, "train", opts)
	if err == nil || !strings.Contains(err.Error(), "wildcards") {
		t.Errorf("remote glob: err = %v", err)
	}
}

func TestHubDatasetEnv(t *testing.T) {
	srv := fakeHub(t)
	home := srv.Use(t)
	t.Setenv("HF_TOKEN", hubtest.Token)
	got, err := Load(context.Background(), Spec{Path: "acme/gated"}, "test", Options{})
	if err != nil || len(got) != 1 {
		t.Fatalf("Load with the environment's endpoint and token: %v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(home, "hub", "datasets--acme--gated")); err != nil {
		t.Errorf("not cached under $HF_HOME/hub: %v", err)
	}
	t.Setenv("HF_HUB_OFFLINE", "1")
	before := len(srv.Requests())
	if _, err := Load(context.Background(), Spec{Path: "acme/gated"}, "test", Options{}); err != nil {
		t.Errorf("HF_HUB_OFFLINE=1 with the split cached: %v", err)
	}
	if len(srv.Requests()) != before {
		t.Error("HF_HUB_OFFLINE=1 still made requests")
	}
}
