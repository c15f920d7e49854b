package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSweepCommand(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	text := filepath.Join("..", "..", "sweep", "testdata", "stories.txt")
	args := []string{"sweep", "--base", base, "--quants", "F16,Q8_0", "--quant_dir", filepath.Join(dir, "q"),
		"--text", text, "--chunk_size", "128", "--top_k", "8",
		"--use_cache", filepath.Join(dir, "sweep.sqlite"), "--output_path", filepath.Join(dir, "out"),
		"--threads", "1", "--type_k", "f32", "--type_v", "f32", "--no_progress"}
	out, err := runApp(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"model", "stories260K", "F16", "Q8_0", "refused", "mean KLD", "top 8 tokens"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		TopK   int `json:"top_k"`
		Models []struct {
			Name  string
			Error string
			KLD   *struct {
				Mean float64 `json:"kld_mean"`
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.TopK != 8 || len(rep.Models) != 3 || rep.Models[1].Name != "F16" || rep.Models[1].KLD == nil || rep.Models[2].Error == "" {
		t.Errorf("sweep.json: %s", data)
	}
	for _, f := range []string{"sweep.csv", "sweep.svg"} {
		if _, err := os.Stat(filepath.Join(dir, "out", f)); err != nil {
			t.Error(err)
		}
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--text", "x.txt"}, "--base and/or --models"},
		{[]string{"sweep", "--base", base, "--quants", "Q9_K", "--text", text, "--use_cache", filepath.Join(dir, "c2.sqlite")}, "unknown file type"},
		{[]string{"sweep", "--models", base, "--quants", "Q8_0", "--text", text, "--use_cache", filepath.Join(dir, "c2.sqlite")}, "need a base"},
		{[]string{"sweep", "--base", base, "--text", filepath.Join(dir, "missing.txt"), "--use_cache", filepath.Join(dir, "c2.sqlite")}, "--text"},
	} {
		if _, err := runApp(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
}
