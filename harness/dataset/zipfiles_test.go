package dataset

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func writeZip(t *testing.T, name string, files map[string]string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, content := range files {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// SCROLLS' download: data_files "zip://<name>/<split>.jsonl::<archive>".
func TestZipDataFiles(t *testing.T) {
	dir := t.TempDir()
	writeZip(t, filepath.Join(dir, "qasper.zip"), map[string]string{
		"qasper/train.jsonl":      `{"id": "a", "input": "x"}` + "\n",
		"qasper/validation.jsonl": `{"id": "b", "input": "y"}` + "\n" + `{"id": "b", "input": "z"}` + "\n",
	})
	opts := Options{Dir: dir, CacheDir: filepath.Join(dir, "cache", "hub"), Offline: true}
	spec := Spec{Path: "json", Kwargs: map[string]any{"data_files": map[string]any{
		"train":      "zip://qasper/train.jsonl::qasper.zip",
		"validation": "zip://qasper/validation.jsonl::" + filepath.Join(dir, "qasper.zip"),
	}}}
	for range 2 { // the second read uses the extracted copy
		got, err := Load(context.Background(), spec, "validation", opts)
		if err != nil {
			t.Fatal(err)
		}
		want := []map[string]any{{"id": "b", "input": "y"}, {"id": "b", "input": "z"}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("validation: got %v, want %v", got, want)
		}
	}
	got, err := Load(context.Background(), spec, "train", opts)
	if err != nil || len(got) != 1 || got[0]["id"] != "a" {
		t.Fatalf("train: got %v, %v", got, err)
	}
	bad := Spec{Path: "json", Kwargs: map[string]any{"data_files": "zip://qasper/test.jsonl::qasper.zip"}}
	if _, err := Load(context.Background(), bad, "train", opts); err == nil {
		t.Fatal("a missing member loaded")
	}
}
