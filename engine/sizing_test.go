package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

// randomModel writes a random llama model with grouped-query attention:
// 128-wide embeddings, 4 heads of 32, 2 KV heads, 3 layers.
func randomModel(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gqa.gguf")
	spec := ggufwrite.LlamaSpec{NEmbd: 128, NLayer: 3, NHead: 4, NHeadKV: 2, NFF: 256, NCtx: 1024, Seed: 3}
	if err := ggufwrite.WriteLlama(path, spec); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestKVBytesPerToken checks the KV cell size against hand computations
// from the models' hyperparameters.
func TestKVBytesPerToken(t *testing.T) {
	stories := storiesPath(t)
	gqa := randomModel(t)
	for _, tc := range []struct {
		path         string
		typeK, typeV string
		want         int64
	}{
		// stories260K: 5 layers, n_embd 64, 8 heads (of 8), 4 KV heads:
		// K and V rows of 32 elements per layer.
		{stories, "f32", "f32", 5 * (32*4 + 32*4)}, // 1280
		{stories, "f16", "f16", 5 * (32*2 + 32*2)}, // 640
		{stories, "q8_0", "q8_0", 5 * (34 + 34)},   // one 32-element block of 34 bytes
		{stories, "f32", "q4_0", 5 * (32*4 + 18)},  // K f32, V one q4_0 block
		{gqa, "f16", "f16", 3 * (64*2 + 64*2)},     // 3 layers, 2 KV heads of 32
		{gqa, "q4_0", "q4_0", 3 * (2*18 + 2*18)},   // two blocks per row
		{gqa, "bf16", "q5_1", 3 * (64*2 + 2*24)},   // mixed types
		{gqa, "iq4_nl", "f32", 3 * (2*18 + 64*4)},  // iq4_nl blocks of 32 in 18 bytes
	} {
		gf, err := gguf.Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		tk, _ := kvType(tc.typeK)
		tv, _ := kvType(tc.typeV)
		if got := kvBytesPerToken(gf.Facts(), tk, tv); got != tc.want {
			t.Errorf("%s %s/%s: %d bytes per token, want %d", filepath.Base(tc.path), tc.typeK, tc.typeV, got, tc.want)
		}
	}
}

// captureLog collects llama.cpp's log lines.
type captureLog struct {
	mu    sync.Mutex
	lines []string
}

func (c *captureLog) Enabled(context.Context, slog.Level) bool { return true }
func (c *captureLog) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	c.lines = append(c.lines, r.Message)
	c.mu.Unlock()
	return nil
}
func (c *captureLog) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *captureLog) WithGroup(string) slog.Handler      { return c }

// mib finds "<what> buffer size = X MiB" in the log.
func (c *captureLog) mib(t *testing.T, what string) float64 {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	re := regexp.MustCompile(what + ` buffer size =\s*([0-9.]+) MiB`)
	for _, l := range c.lines {
		if m := re.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			return v
		}
	}
	t.Fatalf("no %q buffer size in llama.cpp's log", what)
	return 0
}

// TestCostMatchesLlamaCpp checks the memory estimate against the buffer
// sizes llama.cpp itself reports when it makes contexts: the KV buffer
// exactly, the compute buffer's growth per cell within 5%, and the fixed
// part estimated high.
func TestCostMatchesLlamaCpp(t *testing.T) {
	stories := storiesPath(t)
	gqa := randomModel(t)
	for _, tc := range []struct {
		path  string
		kv    string
		flash bool // a quantized V cache needs flash attention
	}{{stories, "f32", false}, {stories, "f16", false}, {gqa, "f16", false}, {gqa, "q8_0", true}} {
		var kv, compute [2]float64
		var cost memCost
		cells := [2]int{1024, 4096}
		for i, n := range cells {
			c := &captureLog{}
			SetLogger(slog.New(c))
			fa := map[bool]string{false: "off", true: "on"}[tc.flash]
			m := load(t, tc.path, Options{NCtx: n, NSeqMax: 4, TypeK: tc.kv, TypeV: tc.kv, FlashAttn: fa})
			SetLogger(nil)
			kv[i], compute[i] = c.mib(t, "KV"), c.mib(t, "compute")
			cost = estimateCost(m.Facts(), m.Settings().KVBytesPerToken, m.Settings().NBatch, m.Settings().NUBatch, tc.flash)
			m.Close()
		}
		name := filepath.Base(tc.path) + "/" + tc.kv
		for i, n := range cells {
			if want := float64(int64(n)*cost.KVPerToken) / (1 << 20); math.Abs(kv[i]-want) > 0.006 {
				t.Errorf("%s n_ctx %d: llama.cpp's KV buffer %.2f MiB, estimate %.4f MiB", name, n, kv[i], want)
			}
		}
		perCell := (compute[1] - compute[0]) * (1 << 20) / float64(cells[1]-cells[0])
		est := float64(cost.PerCell - cost.KVPerToken)
		if math.Abs(perCell-est) > 0.05*est {
			t.Errorf("%s: compute buffer grows %.0f bytes per cell, estimate %.0f", name, perCell, est)
		}
		fixed := compute[0]*(1<<20) - perCell*float64(cells[0])
		if float64(cost.Fixed) < fixed {
			t.Errorf("%s: fixed compute %.0f bytes, estimate %d is low", name, fixed, cost.Fixed)
		}
	}
}

// storiesCost is the estimate for stories260K with the default n_batch
// and n_ubatch of 512 and flash attention off, worked by hand:
// per cell, 1280 (f32 KV) + 512*4 (mask) + 512*8*4 (scores) = 19712;
// fixed, 4*512*512 (output) + 4*512*(512 + 8*64 + 2*172) = 3850240.
var storiesCost = memCost{KVPerToken: 1280, PerCell: 19712, Fixed: 3850240}

// TestPlanAuto checks n_ctx and max_length picked for a budget against
// hand computations, then that Load picks the same with MemoryBudget.
func TestPlanAuto(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name         string
		budget       int64
		maxLen       int
		given        bool
		nSeq         int
		wantCtx, len int
	}{
		// 0.8*64 MiB - 3850240 = 49836851 usable / 19712 = 2528 cells,
		// down to a multiple of 256: 2304.
		{"fits", 64 * mib, 512, true, 256, 2304, 512},
		// the work bounds it: 4 sequences of 512.
		{"work-bound", 64 * mib, 512, true, 4, 2048, 512},
		// 0.8*1 GiB - 3850240 = 855127244 / 19712 = 43381 -> 43264.
		{"large", 1024 * mib, 2048, false, 256, 43264, 2048},
		// 0.8*4 GiB fits 174077 cells: capped at 65536.
		{"cap", 4096 * mib, 2048, false, 256, 65536, 2048},
		// 0.8*16 MiB - 3850240 = 9571532 / 19712 = 485 cells: an implicit
		// max_length of 2048 shrinks to 256,
		{"shrink", 16 * mib, 2048, false, 256, 256, 256},
		// a given one does not: the context is tried at max_length.
		{"given", 16 * mib, 2048, true, 256, 2048, 2048},
		// under the fixed buffers nothing fits.
		{"nothing", 1 * mib, 512, true, 256, 512, 512},
	} {
		r := sizeRequest{Pools: []memPool{{Free: tc.budget, Share: 1}}, Cost: storiesCost, MaxLength: tc.maxLen, MaxLenGiven: tc.given, NSeqMax: tc.nSeq}
		n, ml := planAuto(r)
		if n != tc.wantCtx || ml != tc.len {
			t.Errorf("%s: n_ctx %d max_length %d, want %d %d", tc.name, n, ml, tc.wantCtx, tc.len)
		}
	}

	// Two pools: a GPU holding 3/4 of the layers with 32 MiB free, and
	// system memory with 1 GiB: the GPU decides. 0.8*32 MiB - 3850240 =
	// 22992650 / (19712*0.75) = 1555 -> 1536.
	r := sizeRequest{Pools: []memPool{{Free: 1024 * mib, Share: 0.25}, {Free: 32 * mib, Share: 0.75}},
		Cost: storiesCost, MaxLength: 512, MaxLenGiven: true, NSeqMax: 256}
	if n, _ := planAuto(r); n != 1536 {
		t.Errorf("two pools: n_ctx %d, want 1536", n)
	}

	path := storiesPath(t)
	gf, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := estimateCost(gf.Facts(), kvBytesPerToken(gf.Facts(), 0, 0), 512, 512, false); got != storiesCost {
		t.Fatalf("estimateCost(stories260K) = %+v, want %+v", got, storiesCost)
	}
	for _, tc := range []struct {
		opts        Options
		ctx, seq, l int
	}{
		{Options{MemoryBudget: 64 * mib, MaxLength: 512}, 2304, 256, 512},
		{Options{MemoryBudget: 64 * mib, MaxLength: 512, MaxBatchSize: 4}, 2048, 4, 512},
		{Options{MemoryBudget: 16 * mib}, 256, 256, 256},
		{Options{MemoryBudget: 64 * mib, NCtx: 1024}, 1024, 256, 1024}, // n_ctx given wins
		{Options{MemoryBudget: 64 * mib, MaxLength: 512, NSeqMax: 8}, 2304, 8, 512},
	} {
		o := tc.opts
		o.AutoBatch, o.TypeK, o.TypeV = true, "f32", "f32"
		m := load(t, path, o)
		in := m.Settings()
		// The cache starts at the scheduler's budget (512 cells for
		// stories260K at n_batch 512) and may grow to what the memory
		// allows; a given n_ctx is both.
		start := min(tc.ctx, 512)
		if o.NCtx > 0 {
			start = tc.ctx
		}
		if in.NCtxMax != tc.ctx || in.NCtx != start || in.NSeqMax != tc.seq || in.MaxLength != tc.l || in.Batch != "auto" || in.FreeMemory != o.MemoryBudget {
			t.Errorf("%+v: n_ctx %d (max %d) n_seq_max %d max_length %d batch %q free %d, want %d (max %d) %d %d auto %d",
				tc.opts, in.NCtx, in.NCtxMax, in.NSeqMax, in.MaxLength, in.Batch, in.FreeMemory, start, tc.ctx, tc.seq, tc.l, o.MemoryBudget)
		}
		m.Close()
	}
}

// TestBatchSizeN checks an integer batch size: N sequences, room for N
// sequences of max_length, unless n_ctx or n_seq_max are given.
func TestBatchSizeN(t *testing.T) {
	path := storiesPath(t)
	for _, tc := range []struct {
		opts     Options
		ctx, seq int
	}{
		{Options{BatchSize: 8, MaxLength: 256}, 2048, 8},
		{Options{BatchSize: 3, MaxLength: 200}, 768, 3}, // 600 cells, padded to 256 by llama.cpp
		{Options{BatchSize: 2}, 4096, 2},                // max_length: the training context, 2048
		{Options{BatchSize: 8, NCtx: 1024, MaxLength: 256}, 1024, 8},
		{Options{BatchSize: 8, NSeqMax: 2, MaxLength: 256}, 2048, 2},
	} {
		m := load(t, path, tc.opts)
		in := m.Settings()
		if in.NCtx != tc.ctx || in.NSeqMax != tc.seq || in.Batch != strconv.Itoa(tc.opts.BatchSize) {
			t.Errorf("%+v: n_ctx %d n_seq_max %d batch %q, want %d %d", tc.opts, in.NCtx, in.NSeqMax, in.Batch, tc.ctx, tc.seq)
		}
		m.Close()
	}
	if _, err := Load(path, Options{BatchSize: 300}); err == nil || !strings.Contains(err.Error(), "batch size 300") {
		t.Errorf("batch size 300: err = %v, want one naming it", err)
	}
}

// TestAutoRetry makes context creation fail above a size (as an
// allocation does when the estimate was too low) and checks that auto
// sizing halves n_ctx (from the scheduler's budget: 2048 cells, n_batch
// here) down to max_length, and fails with a clear error when nothing fits.
func TestAutoRetry(t *testing.T) {
	path := storiesPath(t)
	const mib = 1 << 20
	for _, tc := range []struct {
		limit   int // largest n_ctx that "fits"
		tried   []int
		wantErr bool
	}{
		{1 << 30, []int{2048}, false},
		{1024, []int{2048, 1024}, false},
		{0, []int{2048, 1024, 512}, true},
	} {
		var tried []int
		o := Options{AutoBatch: true, MemoryBudget: 64 * mib, MaxLength: 512, NBatch: 2048, Threads: 1, TypeK: "f32", TypeV: "f32"}
		o.newContext = func(c cmodel, p cparams) error {
			tried = append(tried, p.nCtx)
			if p.nCtx > tc.limit {
				return errors.New("failed to allocate buffer")
			}
			return cContextInit(c, p)
		}
		m, err := Load(path, o)
		if fmt.Sprint(tried) != fmt.Sprint(tc.tried) {
			t.Errorf("limit %d: tried %v, want %v", tc.limit, tried, tc.tried)
		}
		if tc.wantErr {
			if err == nil || !strings.Contains(err.Error(), "no context fits") || !strings.Contains(err.Error(), "2048, 1024, 512") ||
				!strings.Contains(err.Error(), path) {
				t.Errorf("limit %d: err = %v, want one naming the file and the sizes tried", tc.limit, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("limit %d: %v", tc.limit, err)
			continue
		}
		// llama.cpp rounds n_ctx up to a multiple of 256.
		if want := (tried[len(tried)-1] + 255) / 256 * 256; m.Settings().NCtx != want {
			t.Errorf("limit %d: n_ctx %d, want %d", tc.limit, m.Settings().NCtx, want)
		}
		if _, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{{Context: "Once upon a time", Continuation: " there"}}); err != nil {
			t.Errorf("limit %d: scoring after retries: %v", tc.limit, err)
		}
		m.Close()
	}
}

// TestAutoScoresAsFixed checks that answers do not depend on how the
// context was sized: auto (from a budget, and from the machine's free
// memory) and batch size 4 score as the fixed default sizes with an f32
// KV cache, within 2e-5: another n_ctx packs sequences into other cells
// and batches, which moves float32 sums by the packing noise docs/engine.md
// states (~2e-5; the largest difference seen here is 1.0e-5).
func TestAutoScoresAsFixed(t *testing.T) {
	path := storiesPath(t)
	reqs := mcRequests(48)
	ctx := context.Background()
	f32 := Options{TypeK: "f32", TypeV: "f32"}
	ref, err := load(t, path, f32).Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"auto-budget", Options{AutoBatch: true, MemoryBudget: 48 << 20, MaxLength: 512}},
		{"auto-free-memory", Options{AutoBatch: true, MaxBatchSize: 2, MaxLength: 256}},
		{"batch-4", Options{BatchSize: 4, MaxLength: 256}},
	} {
		o := tc.opts
		o.TypeK, o.TypeV = "f32", "f32"
		m := load(t, path, o)
		got, err := m.Loglikelihood(ctx, reqs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		worst := 0.0
		for i := range reqs {
			worst = max(worst, math.Abs(got[i].LogProb-ref[i].LogProb))
			if math.Abs(got[i].LogProb-ref[i].LogProb) > 2e-5 || got[i].IsGreedy != ref[i].IsGreedy {
				t.Errorf("%s: request %d: %v %v, fixed %v %v", tc.name, i, got[i].LogProb, got[i].IsGreedy, ref[i].LogProb, ref[i].IsGreedy)
			}
		}
		in := m.Settings()
		t.Logf("%s: n_ctx %d n_seq_max %d free %d: largest difference %.2g", tc.name, in.NCtx, in.NSeqMax, in.FreeMemory, worst)
		if tc.opts.AutoBatch && tc.opts.MemoryBudget == 0 && (in.FreeMemory <= 0 || in.NCtx != 512 || in.NSeqMax != 2) {
			t.Errorf("%s: free memory %d, n_ctx %d, n_seq_max %d; want free memory found, 2 sequences of 256", tc.name, in.FreeMemory, in.NCtx, in.NSeqMax)
		}
		m.Close()
	}
}

// longText is a story of at least n bytes.
func longText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Once upon a time, a little girl named Lily went to the park number %d. She saw a big dog and was happy. ", i)
	}
	return b.String()
}

// TestAutoGrows checks that an auto-sized cache starts at the scheduler's
// budget (512 cells for stories260K), grows when a call's work needs
// more (a rolling window longer than the cache), answers as a fixed
// cache of the full size does, and, when the larger context cannot be
// made, halves down to what the work needs and then fails with a clear
// error (the model is closed: its context is gone).
func TestAutoGrows(t *testing.T) {
	path := storiesPath(t)
	ctx := context.Background()
	text := longText(6400) // about 2400 tokens
	base := Options{MaxLength: 4096, TypeK: "f32", TypeV: "f32", Threads: 2}
	fixed := base
	fixed.NCtx = 4096
	want, err := load(t, path, fixed).LoglikelihoodRolling(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	if want[0].Windows != 1 || want[0].NumTokens <= 2048 {
		t.Fatalf("the text has %d tokens in %d windows; want one window over 2048", want[0].NumTokens, want[0].Windows)
	}

	auto := base
	auto.AutoBatch, auto.MemoryBudget = true, 256<<20
	m := load(t, path, auto)
	if in := m.Settings(); in.NCtx != 512 || in.NCtxMax < 4096 {
		t.Fatalf("n_ctx %d (max %d), want 512 growing to at least 4096", in.NCtx, in.NCtxMax)
	}
	got, err := m.LoglikelihoodRolling(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	need := want[0].NumTokens // the window's input: the prefix token and all but the last token
	if in, st := m.Settings(), m.Stats(); in.NCtx < need || in.NCtx > (need+512+255)/256*256 || st.CacheGrowths != 1 {
		t.Errorf("after the call: n_ctx %d, %d growths; want one growth to %d..%d cells", in.NCtx, st.CacheGrowths, need, (need+512+255)/256*256)
	}
	if d := math.Abs(got[0].LogProb - want[0].LogProb); d > 1e-4 {
		t.Errorf("grown cache: log-prob %v, fixed n_ctx 4096: %v (difference %.2g)", got[0].LogProb, want[0].LogProb, d)
	}

	// Growth fails above 2048 cells: tried at the target, halved down
	// to the window, then an error naming the sizes.
	var tried []int
	failing := auto
	failing.newContext = func(c cmodel, p cparams) error {
		tried = append(tried, p.nCtx)
		if p.nCtx > 2048 {
			return errors.New("failed to allocate buffer")
		}
		return cContextInit(c, p)
	}
	m2 := load(t, path, failing)
	tried = nil
	_, err = m2.LoglikelihoodRolling(ctx, []string{text})
	if err == nil || !strings.Contains(err.Error(), "growing the cache from n_ctx 512") || !strings.Contains(err.Error(), "no context fits") {
		t.Fatalf("err = %v, want the growth failure", err)
	}
	if len(tried) < 2 || tried[len(tried)-1] != need {
		t.Errorf("tried %v, want halvings down to %d", tried, need)
	}
	if _, err := m2.Loglikelihood(ctx, []LoglikelihoodRequest{{Context: "Once", Continuation: " upon"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("after a failed growth: err = %v, want ErrClosed", err)
	}
}
