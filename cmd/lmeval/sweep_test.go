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

// TestSweepModelArgs: sweep takes run's --model_args (same parser, same
// keys and meanings), its own engine flags overriding them.
func TestSweepModelArgs(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	text := filepath.Join("..", "..", "sweep", "testdata", "stories.txt")
	common := func(extra ...string) []string {
		return append([]string{"sweep", "--base", base, "--text", text, "--chunk_size", "64", "--top_k", "4",
			"--use_cache", filepath.Join(dir, "sweep.sqlite"), "--no_progress"}, extra...)
	}
	// The command line, lm-eval style (space-separated k=v too).
	for _, extra := range [][]string{
		{"--model_args", "n_ctx=128,threads=1"},
		{"--model_args", "n_ctx=128", "threads=1", "type_k=f32", "type_v=f32"},
		{"-a", `{"threads": 1, "n_ubatch": 32}`},
		// The sweep's own flag overrides the model_arg: a bad type_k is
		// never used.
		{"--model_args", "type_k=nonsense", "--type_k", "f16"},
	} {
		if out, err := runApp(t, common(extra...)...); err != nil || !strings.Contains(out, "stories260K") {
			t.Errorf("%v: err %v\n%s", extra, err, out)
		}
	}
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		// The model_args reach the engine: n_ctx is the context, type_k
		// the cache type.
		{[]string{"--model_args", "n_ctx=32"}, "n_ctx 32 cannot hold a sequence of 64 tokens"},
		{[]string{"--model_args", "type_k=nonsense"}, "nonsense"},
		{[]string{"--model_args", "max_length=48", "--max_length", "32"}, "disagree"},
		{[]string{"--model_args", "pretrained=x.gguf"}, "--base and --models"},
		{[]string{"--model_args", "batch_size=8"}, "n_batch"},
		{[]string{"--model_args", "temperature=1"}, `unknown argument "temperature"`},
		{[]string{"--model_args", "threads=many"}, "threads=many"},
	} {
		if _, err := runApp(t, common(tc.extra...)...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.extra, err, tc.want)
		}
	}
}
