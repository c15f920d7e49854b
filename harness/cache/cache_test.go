package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/internal/filehash"
)

// fakeLM answers each request with a value derived from the request alone
// (so any run can predict every answer) and counts what it computes.
type fakeLM struct {
	delay    time.Duration
	computed atomic.Int64
	mu       sync.Mutex
	seen     map[string]int // request text -> times computed
}

func h(s string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(s))
	return f.Sum64()
}

func wantLL(r model.LoglikelihoodRequest) model.LoglikelihoodResult {
	v := h(r.Context + "\x00" + r.Continuation)
	return model.LoglikelihoodResult{LogProb: -float64(v%100000) / 977, IsGreedy: v%3 == 0, NumTokens: len(r.Continuation)}
}

func (f *fakeLM) note(s string) {
	f.computed.Add(1)
	f.mu.Lock()
	if f.seen == nil {
		f.seen = map[string]int{}
	}
	f.seen[s]++
	f.mu.Unlock()
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
}

func (f *fakeLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f.note(r.Context + "\x00" + r.Continuation)
		out[i] = wantLL(r)
	}
	return out, nil
}

func (f *fakeLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	out := make([]model.RollingResult, len(reqs))
	for i, r := range reqs {
		f.note(r.Text)
		out[i] = model.RollingResult{LogProb: -float64(h(r.Text) % 1000), NumTokens: len(r.Text)}
	}
	return out, nil
}

func (f *fakeLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		f.note(fmt.Sprint(r))
		out[i] = fmt.Sprintf("gen-%x", h(fmt.Sprint(r)))
	}
	return out, nil
}

func llRequests(n, offset int) []model.LoglikelihoodRequest {
	out := make([]model.LoglikelihoodRequest, n)
	for i := range out {
		out[i] = model.LoglikelihoodRequest{Context: fmt.Sprintf("Question %d:", i+offset), Continuation: fmt.Sprintf(" answer %d", (i+offset)%7)}
	}
	return out
}

func checkLL(t *testing.T, reqs []model.LoglikelihoodRequest, got []model.LoglikelihoodResult) {
	t.Helper()
	if len(got) != len(reqs) {
		t.Fatalf("got %d results for %d requests", len(got), len(reqs))
	}
	for i, r := range reqs {
		if got[i] != wantLL(r) {
			t.Fatalf("result %d = %+v, want %+v", i, got[i], wantLL(r))
		}
	}
}

func openTemp(t *testing.T) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "cache.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestHitMiss(t *testing.T) {
	c := openTemp(t)
	ctx := context.Background()
	id := Identity{Backend: "fake", Settings: map[string]string{"n_ctx": "128"}}
	inner := &fakeLM{}
	lm, err := c.Wrap(inner, id)
	if err != nil {
		t.Fatal(err)
	}
	lm.ChunkSize = 7

	first := llRequests(20, 0)
	first = append(first, first[3]) // a duplicate is computed once
	got, err := lm.Loglikelihood(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, first, got)
	if n := inner.computed.Load(); n != 20 {
		t.Errorf("first run computed %d requests, want 20", n)
	}
	// Half old, half new: only the new ones are computed.
	second := llRequests(20, 10)
	got, err = lm.Loglikelihood(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, second, got)
	if n := inner.computed.Load(); n != 30 {
		t.Errorf("after second run computed %d requests in all, want 30", n)
	}
	if h, m := lm.Stats(); h != 10 || m != 30 {
		t.Errorf("stats = %d hits, %d misses; want 10, 30", h, m)
	}

	// Other request types, and generation parameters are part of the key.
	gens := []model.GenerateRequest{
		{Context: "Q", Until: []string{"\n"}},
		{Context: "Q", Until: []string{"\n"}, Temperature: 0.7, DoSample: true, Seed: 1},
		{Context: "Q", Until: []string{"\n"}, MaxGenToks: 5},
	}
	g1, err := lm.GenerateUntil(ctx, gens)
	if err != nil {
		t.Fatal(err)
	}
	if g1[0] == g1[1] || g1[0] == g1[2] {
		t.Errorf("different generation parameters share an answer: %q", g1)
	}
	g2, err := lm.GenerateUntil(ctx, gens)
	if err != nil || !reflect.DeepEqual(g1, g2) {
		t.Errorf("cached generations = %q, %v; want %q", g2, err, g1)
	}
	rolls := []model.RollingRequest{{Text: "a b c"}, {Text: "d e"}}
	r1, _ := lm.LoglikelihoodRolling(ctx, rolls)
	r2, err := lm.LoglikelihoodRolling(ctx, rolls)
	if err != nil || !reflect.DeepEqual(r1, r2) {
		t.Errorf("cached rolling = %v, %v; want %v", r2, err, r1)
	}
	if n := inner.computed.Load(); n != 30+3+2 {
		t.Errorf("computed %d in all, want 35", n)
	}
	info, err := c.Summary()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"loglikelihood": 30, "generate_until": 3, "loglikelihood_rolling": 2}
	if !reflect.DeepEqual(info.Responses, want) || len(info.Models) != 1 || info.Models[0].Entries != 35 {
		t.Errorf("info = %+v", info)
	}

	// Another identity (other n_ctx) shares nothing.
	other, err := c.Wrap(inner, Identity{Backend: "fake", Settings: map[string]string{"n_ctx": "256"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Loglikelihood(ctx, first[:5]); err != nil {
		t.Fatal(err)
	}
	if n := inner.computed.Load(); n != 40 {
		t.Errorf("another n_ctx reused answers: computed %d in all, want 40", n)
	}

	if err := c.Clear(); err != nil {
		t.Fatal(err)
	}
	info, _ = c.Summary()
	if len(info.Responses) != 0 || len(info.Models) != 0 {
		t.Errorf("after Clear: %+v", info)
	}
}

// TestOtherModelFileSameName: answers cached for one model file are never
// served for a different file at the same path, even with the same size;
// the same content elsewhere is the same model.
func TestOtherModelFileSameName(t *testing.T) {
	c := openTemp(t)
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(path, []byte("GGUF model A weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := map[string]string{"pretrained": path, "n_ctx": "512", "threads": "4"}
	inner := &fakeLM{}
	run := func(args map[string]string) {
		t.Helper()
		id, err := c.ModelIdentity("llama", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		lm, err := c.Wrap(inner, id)
		if err != nil {
			t.Fatal(err)
		}
		reqs := llRequests(10, 0)
		got, err := lm.Loglikelihood(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		checkLL(t, reqs, got)
	}
	run(args)
	run(args)
	if n := inner.computed.Load(); n != 10 {
		t.Fatalf("same model twice computed %d, want 10", n)
	}
	// Thread counts do not change answers.
	args2 := map[string]string{"pretrained": path, "n_ctx": "512", "threads": "8"}
	run(args2)
	if n := inner.computed.Load(); n != 10 {
		t.Fatalf("another thread count computed %d in all, want 10", n)
	}
	// Same path, same size, other content.
	st, _ := os.Stat(path)
	if err := os.WriteFile(path, []byte("GGUF model B weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Filesystems with coarse timestamps may not move the mtime on a quick
	// rewrite; the memo keys on it, so move it as any real rewrite would.
	if err := os.Chtimes(path, st.ModTime().Add(time.Second), st.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	run(args)
	if n := inner.computed.Load(); n != 20 {
		t.Fatalf("a different model file at the same path got cached answers: computed %d in all, want 20", n)
	}
	// Model B's content under another name is model B.
	moved := filepath.Join(dir, "renamed.gguf")
	if err := os.WriteFile(moved, []byte("GGUF model B weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(map[string]string{"pretrained": moved, "n_ctx": "512"})
	if n := inner.computed.Load(); n != 20 {
		t.Fatalf("same content under another name recomputed: %d in all, want 20", n)
	}
	fa, _ := filehash.SHA256(context.Background(), path)
	fb, _ := c.Fingerprint(moved)
	if fa != fb {
		t.Errorf("fingerprints differ for equal content: %s %s", fa, fb)
	}
}

func TestBlobs(t *testing.T) {
	c := openTemp(t)
	k1, _ := BlobKey("requests-arc_easy", "cfghash", 10, 5, 1234)
	k2, _ := BlobKey("requests-arc_easy", "cfghash", 10, 5, 1235)
	if k1 == k2 {
		t.Fatal("keys ignore a part")
	}
	if _, ok, err := c.GetBlob(k1); ok || err != nil {
		t.Fatalf("empty cache returned a blob: %v %v", ok, err)
	}
	if err := c.PutBlob(k1, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := c.PutBlob(k2, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if err := c.PutBlob("other", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, ok, _ := c.GetBlob(k1); !ok || string(b) != "one" {
		t.Errorf("GetBlob = %q, %v", b, ok)
	}
	n, err := c.DeleteBlobs("requests-")
	if err != nil || n != 2 {
		t.Errorf("DeleteBlobs(requests-) = %d, %v; want 2", n, err)
	}
	if _, ok, _ := c.GetBlob("other"); !ok {
		t.Error("DeleteBlobs removed a key outside its prefix")
	}
}

// Child processes: the test binary re-executed with these variables set.
const (
	envChild  = "LMEVAL_CACHE_TEST_CHILD"
	envDB     = "LMEVAL_CACHE_TEST_DB"
	envN      = "LMEVAL_CACHE_TEST_N"
	envOffset = "LMEVAL_CACHE_TEST_OFFSET"
	envOut    = "LMEVAL_CACHE_TEST_OUT"
	envDelay  = "LMEVAL_CACHE_TEST_DELAY"
	envChunk  = "LMEVAL_CACHE_TEST_CHUNK"
)

var childID = Identity{Backend: "fake", Settings: map[string]string{"n_ctx": "64"}}

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		if err := child(); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child() error {
	atoi := func(k string) int { n, _ := strconv.Atoi(os.Getenv(k)); return n }
	c, err := Open(os.Getenv(envDB))
	if err != nil {
		return err
	}
	defer c.Close()
	lm, err := c.Wrap(&fakeLM{delay: time.Duration(atoi(envDelay)) * time.Millisecond}, childID)
	if err != nil {
		return err
	}
	lm.ChunkSize = atoi(envChunk)
	res, err := lm.Loglikelihood(context.Background(), llRequests(atoi(envN), atoi(envOffset)))
	if err != nil {
		return err
	}
	b, _ := json.Marshal(res)
	return os.WriteFile(os.Getenv(envOut), b, 0o644)
}

func childCmd(t *testing.T, db string, n, offset, delayMS, chunk int, out string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"=1", envDB+"="+db, envN+"="+strconv.Itoa(n),
		envOffset+"="+strconv.Itoa(offset), envDelay+"="+strconv.Itoa(delayMS),
		envChunk+"="+strconv.Itoa(chunk), envOut+"="+out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("child stderr: %s", stderr.String())
		}
	})
	return cmd
}

func countEntries(t *testing.T, db string) int {
	c, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info, err := c.Summary()
	if err != nil {
		t.Fatal(err)
	}
	return info.Responses["loglikelihood"]
}

// TestKillAndResume SIGKILLs a run midway; the rerun computes exactly the
// requests that were not committed and returns the uninterrupted answers.
func TestKillAndResume(t *testing.T) {
	const n, chunk = 200, 5
	db := filepath.Join(t.TempDir(), "cache.sqlite")
	cmd := childCmd(t, db, n, 0, 5, chunk, filepath.Join(t.TempDir(), "never.json"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(db); err == nil && countEntries(t, db) >= 4*chunk {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child committed nothing in 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("child was not killed by the signal: %v", err)
	}
	committed := countEntries(t, db)
	if committed%chunk != 0 || committed >= n {
		t.Fatalf("after SIGKILL %d entries committed: want a whole number of %d-request chunks below %d", committed, chunk, n)
	}

	c, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	inner := &fakeLM{}
	lm, err := c.Wrap(inner, childID)
	if err != nil {
		t.Fatal(err)
	}
	reqs := llRequests(n, 0)
	got, err := lm.Loglikelihood(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, reqs, got)
	if int(inner.computed.Load()) != n-committed {
		t.Errorf("resume computed %d requests, want %d (%d were committed)", inner.computed.Load(), n-committed, committed)
	}
	// The committed ones are the first chunks, in order; none is recomputed.
	for i := range committed {
		k := reqs[i].Context + "\x00" + reqs[i].Continuation
		if inner.seen[k] != 0 {
			t.Fatalf("committed request %d was recomputed", i)
		}
	}
}

// TestConcurrentProcesses runs two processes with overlapping requests on
// one cache file; both finish with correct answers.
func TestConcurrentProcesses(t *testing.T) {
	const n, chunk = 150, 3
	dir := t.TempDir()
	db := filepath.Join(dir, "shared.sqlite")
	var cmds []*exec.Cmd
	var outs []string
	for i, offset := range []int{0, 75} {
		out := filepath.Join(dir, fmt.Sprintf("out%d.json", i))
		outs = append(outs, out)
		cmds = append(cmds, childCmd(t, db, n, offset, 1, chunk, out))
	}
	for _, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	for i, offset := range []int{0, 75} {
		b, err := os.ReadFile(outs[i])
		if err != nil {
			t.Fatal(err)
		}
		var got []model.LoglikelihoodResult
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		checkLL(t, llRequests(n, offset), got)
	}
	if got := countEntries(t, db); got != 225 {
		t.Errorf("shared cache holds %d entries, want 225 distinct requests", got)
	}
}

// cancelAfter cancels its context once n requests have been computed, as a
// Ctrl-C in the middle of a chunk would.
type cancelAfter struct {
	fakeLM
	n      int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		if c.computed.Load() == c.n {
			c.cancel()
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.note(r.Context + "\x00" + r.Continuation)
		out[i] = wantLL(r)
	}
	return out, nil
}

func TestCancelKeepsCompletedChunks(t *testing.T) {
	c := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	inner := &cancelAfter{n: 23, cancel: cancel}
	lm, err := c.Wrap(inner, childID)
	if err != nil {
		t.Fatal(err)
	}
	lm.ChunkSize = 10
	reqs := llRequests(50, 0)
	if _, err := lm.Loglikelihood(ctx, reqs); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v, want context.Canceled", err)
	}
	info, err := c.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Responses["loglikelihood"]; got != 20 {
		t.Errorf("%d answers committed after cancelling in the third chunk, want the first two chunks (20)", got)
	}
	fresh := &fakeLM{}
	lm2, _ := c.Wrap(fresh, childID)
	got, err := lm2.Loglikelihood(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, reqs, got)
	if fresh.computed.Load() != 30 {
		t.Errorf("resume computed %d, want 30", fresh.computed.Load())
	}
}

// TestNextChunk: chunks aim at ChunkTarget from the last chunk's pace,
// grow at most fourfold, and stay within their bounds.
func TestNextChunk(t *testing.T) {
	for _, tc := range []struct {
		n    int
		took time.Duration
		want int
	}{
		{32, ChunkTarget, 32},           // on target: same size
		{32, ChunkTarget / 2, 64},       // twice as fast: twice as many
		{32, time.Millisecond, 128},     // far quicker: at most fourfold
		{32, 4 * ChunkTarget, minChunk}, // four times too slow: 8
		{32, 100 * ChunkTarget, minChunk},
		{1024, time.Millisecond, maxChunk},
		{32, 0, 128},
	} {
		if got := nextChunk(tc.n, tc.took); got != tc.want {
			t.Errorf("nextChunk(%d, %v) = %d, want %d", tc.n, tc.took, got, tc.want)
		}
	}
}
