// Package engine runs GGUF language models in process through llama.cpp and
// turns text into the numbers lm-eval's Hugging Face backend defines:
// continuation log-likelihoods, rolling (perplexity) log-likelihoods and
// greedy or sampled generations.
//
// The package knows nothing of tasks. Go decides what to decode and in which
// order (request ordering, truncation, rolling windows, packing many
// sequences into one llama_batch, shared prefixes); the C shim in csrc/
// runs the loops over the vocabulary, so only per-request results cross
// into Go.
package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lmeval/lmeval/gguf"
)

// LlamaCppCommit is the llama.cpp commit the engine was built from. The
// Makefile sets it with -ldflags -X from the build's cgo.env.
var LlamaCppCommit = "ec98e2002"

// Options configure Load. The zero value gives llama.cpp's defaults where
// they exist and the choices documented on each field otherwise.
type Options struct {
	// NCtx is the KV cache size in tokens, shared by all sequences decoded
	// together. 0: 4096, or MaxLength when that is larger.
	NCtx int
	// MaxLength is lm-eval's max_length: the longest token sequence one
	// request may use; longer inputs are cut from the left. 0: the model's
	// training context, capped at NCtx.
	MaxLength int
	NBatch    int // tokens per llama_decode call; 0: 512
	NUBatch   int // physical batch; 0: 512
	NSeqMax   int // sequences decoded together; 0: 128 (at most 256)
	Threads   int // 0: runtime.NumCPU()

	// AutoBatch sizes the context to free memory (lm-eval's batch_size
	// auto): NCtx as large as fits a safety fraction of the memory the
	// context goes to, bounded by what the work can use (NSeqMax sequences
	// of MaxLength, at most 65536 cells) and at least MaxLength; NSeqMax
	// 256 (at most MaxBatchSize). NCtx, NSeqMax and MaxLength, when given,
	// are kept. If llama.cpp still cannot allocate the context, NCtx is
	// halved and retried down to MaxLength.
	AutoBatch bool
	// MaxBatchSize bounds the NSeqMax AutoBatch picks (0: 256).
	MaxBatchSize int
	// BatchSize is lm-eval's integer batch_size: NSeqMax, and NCtx room
	// for that many sequences of MaxLength. NCtx and NSeqMax, when given,
	// are kept.
	BatchSize int
	// MemoryBudget replaces, for AutoBatch, the free memory the engine
	// finds (bytes; 0: look): for sharing a device, and for tests.
	MemoryBudget int64
	// newContext replaces context creation in tests of the retry path.
	newContext func(c cmodel, p cparams) error

	// NGPULayers is the number of layers to offload to a GPU; 0 or less
	// means all layers when a GPU backend is built in. CPUOnly keeps every
	// layer on the CPU.
	NGPULayers  int
	CPUOnly     bool
	MainGPU     int
	SplitMode   string    // "layer" (default), "row" or "none"
	TensorSplit []float32 // proportions per GPU
	// FlashAttn is "auto" (the default: llama.cpp decides, except that an
	// f32 KV cache turns it off, see TypeK), "on" or "off".
	FlashAttn string
	// TypeK and TypeV are the KV cache element types: "f16" (default, as in
	// llama.cpp), "f32", "bf16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1",
	// "iq4_nl". Both f32 (with flash attention off) gives exact float32
	// attention: results then agree with a one-sequence reference and across
	// batch layouts to ~1e-5; with f16 they move by ~1e-3.
	TypeK, TypeV string

	// AddBOS overrides whether tokenizing a text adds the BOS token; nil:
	// the GGUF's tokenizer.ggml.add_bos_token as llama.cpp reads it.
	AddBOS *bool
	// PrefixToken overrides the token an empty context becomes and the
	// first rolling window is conditioned on (lm-eval's prefix_token_id
	// model argument); nil: BOS when the vocabulary has one, else EOS.
	PrefixToken *int32
	// Seed is the default sampling seed for generation requests that give
	// none.
	Seed int64

	// NoPrefixSharing decodes every sequence separately even when requests
	// share leading tokens. Results are the same; it exists to check that.
	NoPrefixSharing bool
	// SkipLeadingBOS changes what a text whose tokens start with BOS scores
	// in LoglikelihoodRolling.
	// lm-eval (the default, false) conditions the first token on the prefix
	// token, so a leading BOS is itself scored, given BOS. When true the
	// leading BOS serves as the prefix and is not scored.
	SkipLeadingBOS bool

	// VocabOnly loads only the tokenizer (no weights, no context): only
	// the tokenizer methods and Facts work.
	VocabOnly bool
	NoMmap    bool

	// LoadProgress, when set, is called as Load reads the weights with
	// the fraction done, rising, ending at 1 once the model is loaded.
	// llama.cpp calls it from the loading thread; it should return quickly.
	LoadProgress func(frac float64)
}

// Settings are what the engine settled on when loading, beyond the file's facts.
type Settings struct {
	Path        string
	Description string // llama.cpp's model description ("llama 260K all F32")
	// Backend is where the layers run: "cpu", or the backend of the
	// devices they are offloaded to ("vulkan", "cuda", "metal"); Devices
	// lists those devices (none on the CPU), with their memory at load.
	// A GPU build that finds no usable device runs on the CPU, and says so
	// here.
	Backend string
	Devices []Device
	NCtx    int
	// NCtxMax is the most cells the cache may grow to: with AutoBatch
	// the size free memory allows (the cache starts at the scheduler's
	// budget and grows when a call needs more), else NCtx.
	NCtxMax   int
	NCtxTrain int
	MaxLength int
	NBatch    int
	NUBatch   int
	NSeqMax   int
	Threads   int
	GPULayers int
	FlashAttn string
	TypeK     string
	TypeV     string
	NVocab    int
	NEmbd     int
	NLayer    int
	NParams   uint64
	Size      uint64 // bytes of tensor data
	BOS, EOS  int32  // -1 when the vocabulary has none
	EOT       int32
	// PrefixToken is lm-eval's prefix_token_id: what an empty context
	// becomes (Options.PrefixToken, else BOS, else EOS).
	PrefixToken int32
	EOG         []int32 // every end-of-generation token
	// Batch is how the context was sized: "auto", the integer batch size,
	// or "" for the defaults.
	Batch string
	// FreeMemory is the free memory AutoBatch sized the context to (bytes;
	// the most constraining device), KVBytesPerToken the KV cache bytes of
	// one cell.
	FreeMemory      int64
	KVBytesPerToken int64
	AddBOS          bool
	VocabType       string
	Commit          string // llama.cpp commit
}

// Stats counts the work done since Load.
type Stats struct {
	Requests        int   // requests answered
	Truncated       int   // requests whose context was cut from the left
	TokensRequested int64 // tokens the requests needed decoded, without sharing
	TokensDecoded   int64 // tokens actually decoded
	Decodes         int64 // llama_decode calls
	// DecodeTime is the wall time spent in llama_decode, ScoreTime in the
	// shim's loops over logits rows (log-softmax, gather, argmax) and
	// sampling: what is left of a call's time is Go (tokenizing, planning).
	DecodeTime, ScoreTime time.Duration
	// CacheGrowths counts the times AutoBatch grew the KV cache for a
	// call's work.
	CacheGrowths int
	// AttentionSwitches counts the times the context was remade for the
	// other attention kernel (flash_attn auto on the CPU: see cpuFlash).
	AttentionSwitches int
}

// Model is a loaded model with its context. Its methods may be called from
// several goroutines; they run one at a time.
type Model struct {
	mu     sync.Mutex
	c      cmodel
	path   string
	opts   Options
	info   Settings
	facts  gguf.Facts
	addBOS bool
	stats  Stats
	// params are the context's settings, for growing it (reserve).
	params cparams
	// autoCap, with AutoBatch, is the most cells free memory allows: the
	// cache starts at what the scheduler keeps in flight and grows up to
	// it when a call needs more. 0: the cache has a fixed size.
	autoCap int
}

var kvTypes = map[string]int{
	"f32": 0, "f16": 1, "q4_0": 2, "q4_1": 3, "q5_0": 6, "q5_1": 7, "q8_0": 8, "iq4_nl": 20, "bf16": 30,
}

func kvType(name string) (int, error) {
	if name == "" {
		return kvTypes["f16"], nil
	}
	t, ok := kvTypes[strings.ToLower(name)]
	if !ok {
		return 0, fmt.Errorf("unknown KV cache type %q (want f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1 or iq4_nl)", name)
	}
	return t, nil
}

// autoContext makes a context of nCtx cells, halving nCtx after each
// failure (llama.cpp reports a failed allocation only as a failed context)
// down to floor, the context one request of max_length needs.
func autoContext(c cmodel, p *cparams, nCtx, floor int, newContext func(cmodel, cparams) error) error {
	var tried []string
	for {
		p.nCtx = nCtx
		err := newContext(c, *p)
		if err == nil {
			return nil
		}
		tried = append(tried, fmt.Sprint(nCtx))
		if nCtx <= floor {
			return fmt.Errorf("batch size auto: no context fits (n_ctx tried: %s; n_seq_max %d): %w "+
				"(free some memory, or lower max_length or n_ubatch)", strings.Join(tried, ", "), p.nSeqMax, err)
		}
		slog.Warn(fmt.Sprintf("batch size auto: a context of n_ctx %d failed (%v); trying %d", nCtx, err, max(nCtx/2, floor)))
		nCtx = max(nCtx/2, floor)
	}
}

// flashSetting is flash_attn as set: auto when the engine picks it per call.
func flashSetting(p cparams) string {
	if p.flashAuto {
		return "auto"
	}
	return flashName(p.flashAttn)
}

func flashName(v int) string {
	switch v {
	case 0:
		return "off"
	case 1:
		return "on"
	}
	return "auto"
}

func typeName(t int) string {
	for k, v := range kvTypes {
		if v == t {
			return k
		}
	}
	return fmt.Sprint(t)
}

func vocabTypeName(t int) string {
	switch t {
	case 0:
		return "none"
	case 1:
		return "spm"
	case 2:
		return "bpe"
	case 3:
		return "wpm"
	case 4:
		return "ugm"
	case 5:
		return "rwkv"
	case 6:
		return "plamo2"
	}
	return fmt.Sprint(t)
}

// ErrClosed is returned by methods called after Close.
var ErrClosed = errors.New("engine: model is closed")

// Close frees the model, its context and every C allocation made for it.
func (m *Model) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.c != nil {
		cFree(m.c)
		m.c = nil
	}
	return nil
}

// Facts returns what the GGUF file says about the model, with the chat
// template llama.cpp finds when the file's key is absent.
func (m *Model) Facts() gguf.Facts { return m.facts }

// Settings returns the settings the engine loaded the model with. With
// AutoBatch, NCtx is the cache's current size, which grows as calls need.
func (m *Model) Settings() Settings {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.info
}

// Stats returns the work done so far.
func (m *Model) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

// Meta returns a metadata value as llama.cpp renders it.
func (m *Model) Meta(key string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.c == nil {
		return "", false
	}
	return cMeta(m.c, key)
}

func (m *Model) lock() error {
	m.mu.Lock()
	if m.c == nil {
		m.mu.Unlock()
		return ErrClosed
	}
	return nil
}
