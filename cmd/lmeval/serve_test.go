package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/cache"
)

// TestServeCommand runs `lmeval serve` (a port picked by the system, on
// loopback) and `lmeval run --model local-completions` against it with a
// response cache: the second run answers from the cache, whose identity
// has the model the server reports and the GGUF's sha256 but not the
// server's address.
func TestServeCommand(t *testing.T) {
	path := storiesPath(t)
	bin := buildBinary(t)
	srv := exec.Command(bin, "serve", "--model_args", "pretrained="+path+",n_ctx=512", "--port", "0")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Kill()
		srv.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "lmeval serve: listening on ")
	if err != nil || !ok || !strings.HasPrefix(addr, "http://127.0.0.1:") {
		t.Fatalf("serve printed %q (%v)", line, err)
	}
	db := filepath.Join(t.TempDir(), "runs.sqlite")
	t.Chdir(harnessDir) // the toy tasks' data files are relative to it
	var tables []string
	for i := 0; i < 2; i++ {
		out, err := runApp(t, "run", "--model", "local-completions", "--model_args", "base_url="+addr+"/v1/completions,num_concurrent=4",
			"--tasks", "toy_mc", "--include_path", "testdata/tasks", "--use_cache", db, "--no_progress")
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		tables = append(tables, out[strings.Index(out, "|"):])
	}
	if tables[0] != tables[1] {
		t.Errorf("the cached rerun differs:\n%s\n%s", tables[0], tables[1])
	}
	out, err := runApp(t, "cache", "info", db, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var info cache.Info
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sum, err := cache.HashFile(path) // path is absolute
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Models) != 1 {
		t.Fatalf("%d model identities, want 1: %+v", len(info.Models), info.Models)
	}
	s := info.Models[0].Identity.Settings
	if s["model_sha256"] != sum || s["server_model"] != "stories260K.gguf" || s["base_url"] != "" || s["num_concurrent"] != "" {
		t.Errorf("identity settings %v: want model_sha256 %s, server_model, no base_url or num_concurrent", s, sum)
	}
}
