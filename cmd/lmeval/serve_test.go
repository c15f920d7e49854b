package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/internal/filehash"
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
	var info cache.Summary
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sum, err := filehash.SHA256(context.Background(), path) // path is absolute
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

// readyWriter is serve's stdout in a test: when the "listening" line
// comes, it asks the server for /health at once (before serve goes on)
// and records the status, then stops the server.
type readyWriter struct {
	mu     sync.Mutex
	out    strings.Builder
	status int
	err    error
	stop   context.CancelFunc
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out.Write(p)
	for _, line := range strings.Split(string(p), "\n") {
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "lmeval serve: listening on ")
		if !ok {
			continue
		}
		resp, err := http.Get(addr + "/health")
		if err != nil {
			w.err = err
		} else {
			w.status = resp.StatusCode
			resp.Body.Close()
		}
		w.stop()
	}
	return len(p), nil
}

// TestServeListeningMeansReady: serve prints "listening" once requests
// can be served (the model loaded): a client that connects when it reads
// the line gets answers, not 503.
func TestServeListeningMeansReady(t *testing.T) {
	path := storiesPath(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &readyWriter{stop: cancel}
	app := newApp()
	app.Writer, app.ErrWriter = w, io.Discard
	err := app.RunContext(ctx, prepareArgs([]string{"lmeval", "serve", "--model_args", "pretrained=" + path + ",n_ctx=512", "--port", "0"}))
	if err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.status != http.StatusOK {
		t.Errorf("GET /health when serve said it was listening: status %d (%v), want 200; stdout:\n%s", w.status, w.err, w.out.String())
	}
}

// TestServeBadModelFailsFast: a model that cannot load ends serve with an
// error naming it, and "listening" is never printed.
func TestServeBadModelFailsFast(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.gguf")
	if err := os.WriteFile(corrupt, append([]byte("GGUF\x03\x00\x00\x00"), make([]byte, 64)...), 0o644); err != nil {
		t.Fatal(err)
	}
	notGGUF := filepath.Join(dir, "text.gguf")
	if err := os.WriteFile(notGGUF, []byte("hello, this is not a model\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{corrupt, notGGUF, filepath.Join(dir, "missing.gguf")} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		stdout, _, err := runAppContext(ctx, t, "serve", "--model_args", "pretrained="+p, "--port", "0")
		cancel()
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming the model", filepath.Base(p), err)
		}
		if strings.Contains(stdout, "listening") {
			t.Errorf("%s: serve said it was listening with a model that cannot load:\n%s", filepath.Base(p), stdout)
		}
	}
}

// lineWriter passes each "listening" address serve prints to addrs.
type lineWriter struct{ addrs chan string }

func (w lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(string(p), "\n") {
		if addr, ok := strings.CutPrefix(strings.TrimSpace(line), "lmeval serve: listening on "); ok {
			w.addrs <- addr
		}
	}
	return len(p), nil
}

// TestServeOpenAIClient runs scripts/serve-clients/openai_check.py, the
// official OpenAI Python client's checks of completions (tokens as
// generated, their texts adding up to the text, log-probs, usage, echo,
// errors, the API key), against serve on stories260K. It needs the
// virtual environment scripts/serve-clients/check.sh makes (build/
// serve-clients); without it the test skips, unless LMEVAL_REQUIRE_OPENAI
// is set (CI).
func TestServeOpenAIClient(t *testing.T) {
	path := storiesPath(t)
	python, err := filepath.Abs(filepath.Join("..", "..", "build", "serve-clients", "bin", "python"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(python); err != nil {
		if os.Getenv("LMEVAL_REQUIRE_OPENAI") != "" {
			t.Fatalf("LMEVAL_REQUIRE_OPENAI is set but %s is missing: run scripts/serve-clients/check.sh", python)
		}
		t.Skip("no build/serve-clients virtual environment: scripts/serve-clients/check.sh makes it and runs this test")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := lineWriter{addrs: make(chan string, 1)}
	app := newApp()
	app.Writer, app.ErrWriter = w, io.Discard
	done := make(chan error, 1)
	go func() {
		done <- app.RunContext(ctx, prepareArgs([]string{"lmeval", "serve", "--model_args", "pretrained=" + path + ",n_ctx=512",
			"--port", "0", "--api_key", "test-key"}))
	}()
	var addr string
	select {
	case addr = <-w.addrs:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	}
	cmd := exec.CommandContext(ctx, python, filepath.Join("..", "..", "scripts", "serve-clients", "openai_check.py"), addr+"/v1", "test-key")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("openai_check.py: %v\n%s", err, out)
	} else {
		t.Logf("%s", out)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
