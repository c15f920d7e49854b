package engine

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/gguf"
)

// Batch sizing: how many KV cache cells (n_ctx, shared by every sequence
// decoded together) and sequence ids (n_seq_max) a context gets, for
// lm-eval's batch_size "auto" and N.
const (
	// autoSafety is the fraction of the free memory auto sizing plans to
	// use: the estimate of llama.cpp's compute buffers is approximate, and
	// other processes allocate too.
	autoSafety = 0.8
	// autoMaxCtx caps the cells auto sizing asks for. Each decoded token
	// attends over the occupied span of the one unified cache, and the
	// attention score buffer llama.cpp reserves grows with n_ctx (n_ubatch
	// x n_ctx x heads floats): past ~64K cells a bigger cache holds more
	// sequences in flight but every decode gets slower and the compute
	// buffer larger, so throughput stops improving.
	autoMaxCtx = 65536
	// maxSeq is llama.cpp's LLAMA_MAX_SEQ.
	maxSeq = MaxSequences
	// defaultMaxLength is the max_length of a model that states no
	// training context.
	defaultMaxLength = 4096
)

// MaxSequences is the most sequences llama.cpp decodes together
// (LLAMA_MAX_SEQ): the largest batch size.
const MaxSequences = 256

// memCost is what a context of n cells costs in memory, as estimated from
// the model's hyperparameters: Fixed + n*PerCell bytes.
type memCost struct {
	KVPerToken int64 // KV cache bytes per cell (every layer, K and V)
	PerCell    int64 // KVPerToken plus the attention scores' share of the compute buffer
	Fixed      int64 // compute and output buffers that do not grow with n_ctx
}

// kvBytesPerToken is the size of one KV cache cell, laid out as
// llama.cpp's llama_kv_cache does: for every layer with a KV cache, a K
// row of n_embd_k_gqa = key_length x head_count_kv elements of type_k and
// a V row of n_embd_v_gqa = value_length x head_count_kv elements of
// type_v (key_length defaults to n_embd / n_head; head_count_kv may be
// given per layer, 0 meaning no KV cache for that layer).
func kvBytesPerToken(f gguf.Facts, typeK, typeV int) int64 {
	var total int64
	for l := range f.HeadCounts {
		heads, headsKV := f.HeadCounts[l], f.HeadCountsKV[l]
		if heads == 0 || headsKV == 0 {
			continue
		}
		dk, dv := f.KeyLength, f.ValueLength
		if dk == 0 {
			dk = f.EmbeddingLength / heads
		}
		if dv == 0 {
			dv = f.EmbeddingLength / heads
		}
		total += rowBytes(typeK, dk*headsKV) + rowBytes(typeV, dv*headsKV)
	}
	return total
}

// headSize is the attention heads' key length (key_length, else
// embedding_length / head_count of the first layer); 0 when unknown.
func headSize(f gguf.Facts) int {
	if f.KeyLength > 0 {
		return int(f.KeyLength)
	}
	if f.HeadCount > 0 {
		return int(f.EmbeddingLength / f.HeadCount)
	}
	return 0
}

// rowBytes is ggml_row_size: n elements of a (block-quantized) type.
func rowBytes(typ int, n uint64) int64 {
	t := gguf.TensorType(typ)
	bs := max(t.BlockSize(), 1)
	return int64((n + bs - 1) / bs * t.TypeSize())
}

// estimateCost estimates a context's memory from the model's facts. The
// compute buffer is dominated, for long caches, by attention over the
// whole unified cache (n_kv = n_ctx when llama.cpp reserves the buffer):
// without flash attention, n_ubatch x n_kv x n_head f32 scores (the
// softmax reuses them) and an f32 mask; with it, the mask in f32 and in
// f16. The rest (a ubatch's logits and activations, the host output
// buffer of n_batch logits rows) does not grow with n_ctx and is
// estimated high. Checked against the buffer sizes llama.cpp reports
// (TestCostMatchesLlamaCpp): on stories260K (n_ubatch 512, 8 heads) its
// compute buffer is 72.63 MiB at n_ctx 4096 and 288.63 MiB at 16384,
// 18432 bytes per cell = 512 x (8 + 1) x 4.
func estimateCost(f gguf.Facts, kvPerToken int64, nBatch, nUBatch int, flashOn bool) memCost {
	c := memCost{KVPerToken: kvPerToken, PerCell: kvPerToken}
	if flashOn {
		c.PerCell += 6 * int64(nUBatch)
	} else {
		c.PerCell += 4 * int64(nUBatch) * (int64(f.HeadCount) + 1)
	}
	nVocab, nEmbd, nFF := int64(f.VocabSize), int64(f.EmbeddingLength), int64(f.FeedForwardLength)
	c.Fixed = 4*int64(nBatch)*nVocab + 4*int64(nUBatch)*(nVocab+8*nEmbd+2*nFF)
	return c
}

// sizeRequest is what auto sizing works from.
type sizeRequest struct {
	Pools       []memPool // where the context's memory comes from
	Cost        memCost
	MaxLength   int  // longest sequence a request may use
	MaxLenGiven bool // max_length was set; else it may shrink to fit
	NSeqMax     int  // sequences decoded together
}

// planAuto picks n_ctx as large as fits autoSafety of the budget, bounded
// above by what the work can use (n_seq_max sequences of max_length, at
// most autoMaxCtx) and below by max_length. When even max_length does not
// fit and it was not given, max_length shrinks to what fits. n_ctx is a
// multiple of 256 (llama.cpp rounds it up to one) unless it is max_length.
func planAuto(r sizeRequest) (nCtx, maxLength int) {
	maxLength = r.MaxLength
	// The pool that fits the fewest cells decides; each pool pays the fixed
	// buffers (conservative: they are split between devices).
	fit := int64(autoMaxCtx)
	for _, p := range r.Pools {
		if p.Share <= 0 || r.Cost.PerCell <= 0 {
			continue
		}
		usable := max(int64(float64(p.Free)*autoSafety)-r.Cost.Fixed, 0)
		fit = min(fit, int64(float64(usable)/(float64(r.Cost.PerCell)*p.Share)))
	}
	hi := int64(max(min(r.NSeqMax*maxLength, autoMaxCtx), maxLength))
	n := min(fit, hi)
	if n < int64(maxLength) {
		if !r.MaxLenGiven {
			maxLength = max(int(n)/256*256, 256)
		}
		return maxLength, maxLength
	}
	if n256 := n / 256 * 256; n256 >= int64(maxLength) {
		n = n256
	} else {
		n = int64(maxLength)
	}
	return int(n), maxLength
}

// memPool is memory one part of the context is allocated from: Free
// bytes, holding Share of the KV cache (the share of the layers there).
type memPool struct {
	Name  string
	Free  int64
	Share float64
}

// freeMemory finds the memory the context's buffers go to: the devices
// the model's layers are offloaded to (devs, as lm_model_devices reports
// them: the device's own free memory, not the system's), and system memory
// (MemAvailable) for the rest and for weights mapped from the file, which
// must stay resident.
func freeMemory(devs []Device, gpuLayers, nLayer int, modelBytes uint64, mmap bool) []memPool {
	share := 0.0
	var gpu memPool
	if len(devs) > 0 && gpuLayers != 0 && nLayer > 0 {
		ngl := nLayer
		if gpuLayers > 0 {
			ngl = min(gpuLayers, nLayer)
		}
		for _, d := range devs {
			gpu.Free += int64(d.Free)
			gpu.Name = strings.TrimPrefix(gpu.Name+"+"+d.Name, "+")
		}
		share = float64(ngl) / float64(nLayer)
		gpu.Share = share
	}
	cpu := memPool{Name: "system memory", Share: 1 - share}
	if avail, ok := memAvailable(); ok {
		cpu.Free = avail
	} else {
		for _, d := range Devices() {
			if d.Type == "cpu" {
				cpu.Free = int64(d.Free)
			}
		}
	}
	if mmap {
		cpu.Free -= int64(float64(modelBytes) * (1 - share))
	}
	pools := []memPool{cpu}
	if gpu.Share > 0 {
		pools = append(pools, gpu)
	}
	return pools
}

// memAvailable reads MemAvailable from /proc/meminfo (Linux).
func memAvailable() (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			fs := strings.Fields(rest)
			if len(fs) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseInt(fs[0], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// inflightCells is how many cache cells the scheduler lets the sequences
// in flight occupy, whatever the cache size. Every token decoded attends
// over the occupied span of the one unified cache, so its attention costs
// about 4 x n_kv x n_embd flops per layer against 2 x P for the layer's
// weights (P parameters): past n_kv = P / (2 n_embd) cells, more sequences
// in flight make each decode slower by more than they batch. That balance
// point is the budget, at least n_batch (so decodes still fill) and at most
// autoMaxCtx. The 110M-parameter shape of the benchmark (n_embd 768, n_ff
// 2048) gets 4608 cells; stories260K 512 (with a floor of 4 x n_batch, 2048
// cells, its multiple choice, rolling and generation workloads took 1.6x,
// 1.1x and 1.5x as long).
func inflightCells(f gguf.Facts, nBatch int) int {
	e, ff := int64(f.EmbeddingLength), int64(f.FeedForwardLength)
	if e <= 0 {
		return max(nBatch, 256)
	}
	heads, kv := int64(f.HeadCount), int64(f.HeadCountKV)
	if heads <= 0 {
		heads = 1
	}
	if kv <= 0 {
		kv = heads
	}
	// Q and output projections (e x e), K and V (e x e x kv/heads), the
	// three feed-forward matrices.
	p := 2*e*e + 2*e*e*kv/heads + 3*e*ff
	n := int((p/(2*e) + 255) / 256 * 256)
	return min(max(n, nBatch, 256), autoMaxCtx)
}

// inflight is the model's inflightCells.
func (m *Model) inflight() int { return inflightCells(m.facts, m.info.NBatch) }

// maxCells is the most cells the cache may have: with AutoBatch the size
// free memory allows (the cache starts smaller and grows to the work),
// else n_ctx.
func (m *Model) maxCells() int {
	if m.autoCap > 0 {
		return m.autoCap
	}
	return m.info.NCtx
}

// reserve makes sure the cache holds need cells (one unit of work that
// cannot be split: a sequence, or a question's choices) and, with
// AutoBatch, grows it towards want (what the widest useful batch occupies),
// never past maxCells. A fixed-size cache is never resized: need beyond it
// is an error naming n_ctx. Growing frees the context and makes a larger
// one (the KV cache is empty between calls); if that fails it halves the
// size down to need, and if even that fails it restores the old size.
// Called with m.mu held.
//
// The context is also remade when the call's kind of work wants the other
// attention kernel (flashFor: flash_attn auto on the CPU).
func (m *Model) reserve(need, want int, w work) error {
	if need > m.maxCells() {
		return fmt.Errorf("%d cells needed exceed n_ctx %d", need, m.maxCells())
	}
	want = max(want, need)
	old, oldFlash := m.info.NCtx, m.params.flashAttn
	target := old
	if m.autoCap > 0 && want > old {
		target = max(old, min((want+255)/256*256, m.autoCap))
	}
	if need > target {
		return fmt.Errorf("%d cells needed exceed n_ctx %d", need, target)
	}
	flash := m.params.flashFor(w, target)
	if target == old && flash == oldFlash {
		return nil
	}
	newContext := m.opts.newContext
	if newContext == nil {
		newContext = cContextInit
	}
	cContextFree(m.c)
	p := m.params
	p.flashAttn = flash
	var err error
	if target > old {
		err = autoContext(m.c, &p, target, max(need, old), newContext)
	} else {
		err = newContext(m.c, p)
	}
	if err != nil && need <= old {
		p = m.params
		if err = newContext(m.c, p); err == nil {
			if target > old {
				m.autoCap = old // the memory is not there: stop trying
				m.info.NCtxMax = old
				slog.Warn(fmt.Sprintf("batch size auto: could not grow the cache past n_ctx %d; keeping it", old))
			} else {
				slog.Warn(fmt.Sprintf("flash attention %s at n_ctx %d failed; keeping it %s", flashName(flash), old, flashName(oldFlash)))
			}
			return nil
		}
	}
	if err != nil {
		cFree(m.c)
		m.c = nil
		if target > old {
			return fmt.Errorf("growing the cache from n_ctx %d: %w (the model is closed)", old, err)
		}
		return fmt.Errorf("remaking the context at n_ctx %d with flash attention %s: %w (the model is closed)", old, flashName(flash), err)
	}
	m.params = p
	ci := cInfo(m.c)
	m.info.NCtx, m.info.NBatch, m.info.NUBatch, m.info.NSeqMax = ci.nCtx, ci.nBatch, ci.nUBatch, ci.nSeqMax
	if ci.nCtx > old {
		m.stats.CacheGrowths++
		slog.Info(fmt.Sprintf("batch size auto: cache grown from n_ctx %d to %d for the work (limit %d)", old, ci.nCtx, m.autoCap))
	}
	if p.flashAttn != oldFlash {
		m.stats.AttentionSwitches++
		slog.Debug(fmt.Sprintf("flash attention %s for %s (n_ctx %d)", flashName(p.flashAttn), w, ci.nCtx))
	}
	return nil
}

// work is the kind of a call, for the attention kernel it runs best with.
type work int

const (
	scoring     work = iota // short sequences, many in flight (multiple choice)
	scoringLong             // sequences of n_ubatch/2 tokens or more (rolling windows, chunks)
	generating              // one token per sequence per step
)

func (w work) String() string {
	switch w {
	case scoringLong:
		return "scoring long sequences"
	case generating:
		return "generation"
	}
	return "scoring"
}

// scoringOf is the kind of a scoring call whose sequences average mean
// tokens.
func scoringOf(mean, nUBatch int) work {
	if 2*mean >= nUBatch {
		return scoringLong
	}
	return scoring
}

// cpuScoresMax bounds the attention-scores buffer (n_ubatch x n_ctx x
// (n_head + 1) f32 values) that running without flash attention may
// reserve on the CPU.
const cpuScoresMax = 256 << 20

// flashFor is the flash_attn setting (0 off, 1 on, -1 llama.cpp decides)
// for work w on a cache of nCtx cells: the given one, except with
// flash_attn auto on the CPU (no layer offloaded, KV not all f32), where
// llama.cpp would always turn it on. See cpuFlash.
func (p cparams) flashFor(w work, nCtx int) int {
	if !p.flashAuto {
		return p.flashAttn
	}
	return cpuFlash(w, nCtx, p.nUBatch, p.nHead, p.headSize)
}

// cpuFlash picks llama.cpp's CPU attention kernel from what was measured
// (2 threads, F16 weights and KV; bench and TestFlash-style runs):
//
//   - with flash attention each query skips the masked cells (other
//     sequences' cells in the unified cache) but pays more per cell it
//     attends; without, attention is two dense matrix products over the
//     whole span;
//   - head size under 32, the flash kernel is slow per cell: stories260K
//     (head size 8) ran multiple choice, rolling windows and generation
//     1.1x, 3.1x and 1.3-1.5x faster without it (512-token sequences on a
//     512x4 model with head size 16: 4x);
//   - head size 32 and more (the 768x12 benchmark model, head size 64):
//     with it, multiple choice (many short sequences in the span) ran
//     1.3x and generation 1.2-1.8x faster; without it, rolling windows
//     (a sequence's own cells fill the span) 1.1-1.2x faster.
//
// Off, in short, when the span is mostly the sequence's own cells or the
// heads are small, unless the scores buffer would pass cpuScoresMax.
func cpuFlash(w work, nCtx, nUBatch, nHead, headSize int) int {
	if 4*int64(nUBatch)*int64(nCtx)*int64(nHead+1) > cpuScoresMax {
		return 1
	}
	if (headSize > 0 && headSize < 32) || w == scoringLong {
		return 0
	}
	return 1
}
