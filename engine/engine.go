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
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/internal/units"
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

// Info is what the engine settled on when loading, beyond the file's facts.
type Info struct {
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
}

// Model is a loaded model with its context. Its methods may be called from
// several goroutines; they run one at a time.
type Model struct {
	mu     sync.Mutex
	c      cmodel
	path   string
	opts   Options
	info   Info
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

// Load opens the GGUF model at path. The file is checked in Go first (it
// exists, is GGUF v2 or v3, its metadata, tensor index and tensor data lie
// within the file, its tokenizer arrays have the shapes llama.cpp assumes),
// so a bad file is an error here, never an abort in C.
func Load(path string, opts Options) (*Model, error) {
	gf, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("engine: load %s: %w", path, err)
	}
	facts := gf.Facts()
	if !opts.VocabOnly && len(gf.Tensors) == 0 {
		return nil, fmt.Errorf("engine: load %s: the file has no tensors (a vocabulary-only GGUF? load it with VocabOnly)", path)
	}
	if err := gf.CheckTokenizer(); err != nil {
		return nil, fmt.Errorf("engine: load %s: %w", path, err)
	}

	p := cparams{
		nCtx: opts.NCtx, nBatch: opts.NBatch, nUBatch: opts.NUBatch, nSeqMax: opts.NSeqMax,
		threads: opts.Threads, mainGPU: opts.MainGPU, tensorSplit: opts.TensorSplit,
		vocabOnly: opts.VocabOnly, mmap: !opts.NoMmap,
	}
	if opts.BatchSize < 0 || opts.BatchSize > maxSeq {
		return nil, fmt.Errorf("engine: load %s: batch size %d: want 1 to %d (llama.cpp's limit on sequences), or auto", path, opts.BatchSize, maxSeq)
	}
	if opts.MaxBatchSize < 0 {
		return nil, fmt.Errorf("engine: load %s: max batch size %d is negative", path, opts.MaxBatchSize)
	}
	auto := opts.AutoBatch && !opts.VocabOnly
	// maxLen is the max_length sizing works with: given, else the
	// training context.
	maxLen := opts.MaxLength
	if maxLen <= 0 {
		maxLen = int(min(facts.ContextLength, 1<<30))
		if maxLen <= 0 {
			maxLen = defaultMaxLength
		}
	}
	switch {
	case auto:
		if p.nSeqMax <= 0 {
			p.nSeqMax = maxSeq
			if opts.MaxBatchSize > 0 {
				p.nSeqMax = min(opts.MaxBatchSize, maxSeq)
			}
		}
	case opts.BatchSize > 0:
		if p.nSeqMax <= 0 {
			p.nSeqMax = opts.BatchSize
		}
		if p.nCtx <= 0 {
			p.nCtx = opts.BatchSize * maxLen
		}
	}
	if p.nCtx <= 0 && !auto {
		p.nCtx = max(4096, opts.MaxLength)
	}
	if opts.MaxLength > 0 && p.nCtx > 0 && opts.MaxLength > p.nCtx {
		return nil, fmt.Errorf("engine: load %s: max_length %d exceeds n_ctx %d", path, opts.MaxLength, p.nCtx)
	}
	if p.nBatch <= 0 {
		p.nBatch = 512
	}
	if p.nUBatch <= 0 {
		p.nUBatch = min(512, p.nBatch)
	}
	if p.nSeqMax <= 0 {
		p.nSeqMax = 128
	}
	if p.nSeqMax > maxSeq {
		return nil, fmt.Errorf("engine: load %s: n_seq_max %d exceeds llama.cpp's limit of %d", path, p.nSeqMax, maxSeq)
	}
	if p.threads <= 0 {
		p.threads = runtime.NumCPU()
	}
	switch {
	case opts.CPUOnly:
		p.gpuLayers = 0
	case opts.NGPULayers > 0:
		p.gpuLayers = opts.NGPULayers
	default:
		p.gpuLayers = -1
	}
	switch strings.ToLower(opts.SplitMode) {
	case "", "layer":
		p.splitMode = 1
	case "none":
		p.splitMode = 0
	case "row":
		p.splitMode = 2
	default:
		return nil, fmt.Errorf("engine: load %s: unknown split mode %q (want layer, row or none)", path, opts.SplitMode)
	}
	switch strings.ToLower(opts.FlashAttn) {
	case "", "auto":
		p.flashAttn = -1
	case "on", "true", "1", "enabled":
		p.flashAttn = 1
	case "off", "false", "0", "disabled":
		p.flashAttn = 0
	default:
		return nil, fmt.Errorf("engine: load %s: flash_attn %q: want auto, on or off", path, opts.FlashAttn)
	}
	if p.typeK, err = kvType(opts.TypeK); err != nil {
		return nil, fmt.Errorf("engine: load %s: type_k: %w", path, err)
	}
	if p.typeV, err = kvType(opts.TypeV); err != nil {
		return nil, fmt.Errorf("engine: load %s: type_v: %w", path, err)
	}
	// llama.cpp's CPU flash-attention kernel works in f16 whatever the
	// cache type, which makes results depend on how sequences are laid out
	// in batches (~1e-3). An f32 cache asks for exact attention, so "auto"
	// then means off.
	if p.flashAttn == -1 && p.typeK == kvTypes["f32"] && p.typeV == kvTypes["f32"] {
		p.flashAttn = 0
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("engine: load %s: %w", path, err)
	}

	// The weights first, then the context: free memory is known only
	// once the weights are placed, and a context that does not fit can be
	// retried smaller without reloading them.
	p.noContext = !opts.VocabOnly
	var lr *loadReporter
	if opts.LoadProgress != nil {
		lr = &loadReporter{fn: opts.LoadProgress}
		id, forget := registerLoadProgress(lr)
		defer forget()
		p.progressID = id
	}
	c, err := cLoad(path, p)
	if err != nil {
		return nil, fmt.Errorf("engine: load %s: %w", path, err)
	}
	kvTok := kvBytesPerToken(gf, p.typeK, p.typeV)
	var free int64
	autoCap := 0
	if !opts.VocabOnly {
		newContext := opts.newContext
		if newContext == nil {
			newContext = cContextInit
		}
		if !auto {
			err = newContext(c, p)
		} else {
			cost := estimateCost(facts, kvTok, p.nBatch, p.nUBatch, p.flashAttn == 1)
			var pools []memPool
			if opts.MemoryBudget > 0 {
				pools = []memPool{{Name: "memory budget", Free: opts.MemoryBudget, Share: 1}}
			} else {
				ci := cInfo(c)
				pools = freeMemory(cModelDevices(c), p.gpuLayers, ci.nLayer, ci.size, p.mmap)
			}
			free = -1
			for _, pl := range pools {
				if pl.Share > 0 && (free < 0 || pl.Free < free) {
					free = pl.Free
				}
			}
			nCtx, ml := planAuto(sizeRequest{Pools: pools, Cost: cost, MaxLength: maxLen, MaxLenGiven: opts.MaxLength > 0, NSeqMax: p.nSeqMax})
			if p.nCtx > 0 {
				nCtx = p.nCtx // n_ctx given: only n_seq_max was automatic
			} else if ml < maxLen {
				slog.Warn(fmt.Sprintf("batch size auto: free memory (%s) does not fit a %d-token context; max_length is %d", units.Bytes(free), maxLen, ml))
				opts.MaxLength = ml
			}
			// The cache starts at what the scheduler keeps in flight and
			// grows (reserve) when a call's work needs more, up to nCtx.
			start := nCtx
			if p.nCtx <= 0 {
				autoCap = nCtx
				start = min(nCtx, inflightCells(facts, p.nBatch))
			}
			err = autoContext(c, &p, start, min(start, max(opts.MaxLength, ml)), newContext)
			if err == nil && autoCap > 0 {
				autoCap = max(autoCap, p.nCtx)
			}
		}
		if err != nil {
			cFree(c)
			return nil, fmt.Errorf("engine: load %s: %w", path, err)
		}
	}
	ci := cInfo(c)
	m := &Model{c: c, path: path, opts: opts, facts: facts, params: p, autoCap: autoCap}
	m.addBOS = ci.addBOS
	if opts.AddBOS != nil {
		m.addBOS = *opts.AddBOS
	}
	m.info = Info{
		Path: path, Description: cDesc(c), Backend: "cpu", Devices: cModelDevices(c),
		NCtx: ci.nCtx, NCtxTrain: ci.nCtxTrain, NBatch: ci.nBatch, NUBatch: ci.nUBatch, NSeqMax: ci.nSeqMax,
		Threads: p.threads, GPULayers: p.gpuLayers, FlashAttn: flashName(p.flashAttn),
		TypeK: typeName(p.typeK), TypeV: typeName(p.typeV),
		NVocab: ci.nVocab, NEmbd: ci.nEmbd, NLayer: ci.nLayer, NParams: ci.nParams, Size: ci.size,
		BOS: ci.bos, EOS: ci.eos, EOT: ci.eot, AddBOS: m.addBOS, VocabType: vocabTypeName(ci.vocabType),
		Commit: LlamaCppCommit, KVBytesPerToken: kvTok, FreeMemory: free,
	}
	m.info.PrefixToken = m.info.BOS
	if m.info.PrefixToken < 0 {
		m.info.PrefixToken = m.info.EOS
	}
	if opts.PrefixToken != nil {
		if t := *opts.PrefixToken; t < 0 || int(t) >= ci.nVocab {
			cFree(c)
			return nil, fmt.Errorf("engine: load %s: prefix token %d outside the vocabulary [0, %d)", path, t, ci.nVocab)
		}
		m.info.PrefixToken = *opts.PrefixToken
	}
	switch {
	case auto:
		m.info.Batch = "auto"
		slog.Info(fmt.Sprintf("batch size auto: n_ctx %d (grows to at most %d), n_seq_max %d (free memory %s, KV %d bytes/token)",
			ci.nCtx, m.maxCells(), ci.nSeqMax, units.Bytes(free), kvTok))
	case opts.BatchSize > 0:
		m.info.Batch = fmt.Sprint(opts.BatchSize)
	}
	m.info.NCtxMax = m.maxCells()
	if len(m.info.Devices) > 0 {
		m.info.Backend = strings.ToLower(m.info.Devices[0].Backend)
	}
	switch {
	case len(m.info.Devices) == 0:
		m.info.GPULayers = 0
	case p.gpuLayers < 0:
		m.info.GPULayers = ci.nLayer + 1 // every layer and the output
	}
	for t := 0; t < ci.nVocab; t++ {
		if cIsEOG(c, int32(t)) {
			m.info.EOG = append(m.info.EOG, int32(t))
		}
	}
	if !opts.VocabOnly {
		m.info.MaxLength = opts.MaxLength
		if m.info.MaxLength <= 0 {
			m.info.MaxLength = m.maxCells()
			if ci.nCtxTrain > 0 && ci.nCtxTrain < m.info.MaxLength {
				m.info.MaxLength = ci.nCtxTrain
			}
		}
	}
	if m.facts.ChatTemplate == "" {
		if t, ok := cChatTemplate(c); ok {
			m.facts.ChatTemplate = t
		}
	}
	// llama.cpp reports 1 once the weights are in, but nothing for a
	// vocabulary-only load; the context comes after either way.
	if lr != nil {
		lr.report(1)
	}
	return m, nil
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

// Info returns the settings the engine loaded the model with. With
// AutoBatch, NCtx is the cache's current size, which grows as calls need.
func (m *Model) Info() Info {
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
