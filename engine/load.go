package engine

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/internal/units"
)

// Load opens the GGUF model at path. The file is checked in Go first (it
// exists, is GGUF v2 or v3, its metadata, tensor index and tensor data lie
// within the file, its tokenizer arrays have the shapes llama.cpp assumes),
// so a bad file is an error here, never an abort in C.
//
// Load's steps, one function each: checkFile (the file), loadParams (the
// options' defaults and checks, as llama.cpp's parameters), cLoad (the
// weights), makeContext (the KV cache, sized to free memory with
// AutoBatch) and newModel (what the engine settled on: Settings).
func Load(path string, opts Options) (*Model, error) {
	m, err := loadModel(path, opts)
	if err != nil {
		return nil, fmt.Errorf("engine: load %s: %w", path, err)
	}
	return m, nil
}

func loadModel(path string, opts Options) (*Model, error) {
	gf, err := checkFile(path, opts.VocabOnly)
	if err != nil {
		return nil, err
	}
	facts := gf.Facts()
	p, maxLen, err := loadParams(opts, facts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
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
		return nil, err
	}
	sz := sizing{kvTok: kvBytesPerToken(facts, p.typeK, p.typeV)}
	p.nHead, p.headSize = int(facts.HeadCount), headSize(facts)
	if !opts.VocabOnly {
		if err := makeContext(c, facts, &p, &opts, maxLen, &sz); err != nil {
			cFree(c)
			return nil, err
		}
	}
	m, err := newModel(c, path, opts, facts, p, sz)
	if err != nil {
		cFree(c)
		return nil, err
	}
	// llama.cpp reports 1 once the weights are in, but nothing for a
	// vocabulary-only load; the context comes after either way.
	if lr != nil {
		lr.report(1)
	}
	return m, nil
}

// checkFile opens the GGUF file and checks, in Go, what llama.cpp would
// abort on.
func checkFile(path string, vocabOnly bool) (*gguf.File, error) {
	gf, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	if !vocabOnly && len(gf.Tensors) == 0 {
		return nil, fmt.Errorf("the file has no tensors (a vocabulary-only GGUF? load it with VocabOnly)")
	}
	if err := gf.CheckTokenizer(); err != nil {
		return nil, err
	}
	return gf, nil
}

// loadParams checks the options and turns them into llama.cpp's
// parameters, with the defaults documented on Options: the sizes first,
// then placement and kernels. maxLen is the max_length sizing works with:
// given, else the training context.
func loadParams(opts Options, facts gguf.Facts) (p cparams, maxLen int, err error) {
	p = cparams{
		nCtx: opts.NCtx, nBatch: opts.NBatch, nUBatch: opts.NUBatch, nSeqMax: opts.NSeqMax,
		threads: opts.Threads, mainGPU: opts.MainGPU, tensorSplit: opts.TensorSplit,
		vocabOnly: opts.VocabOnly, mmap: !opts.NoMmap,
	}
	if maxLen, err = p.setSizes(opts, facts); err != nil {
		return p, 0, err
	}
	if err := p.setPlacement(opts); err != nil {
		return p, 0, err
	}
	return p, maxLen, nil
}

// setSizes sets the context's sizes: n_ctx, n_seq_max from the batch size,
// n_batch, n_ubatch, threads.
func (p *cparams) setSizes(opts Options, facts gguf.Facts) (maxLen int, err error) {
	if opts.BatchSize < 0 || opts.BatchSize > maxSeq {
		return 0, fmt.Errorf("batch size %d: want 1 to %d (llama.cpp's limit on sequences), or auto", opts.BatchSize, maxSeq)
	}
	if opts.MaxBatchSize < 0 {
		return 0, fmt.Errorf("max batch size %d is negative", opts.MaxBatchSize)
	}
	auto := opts.AutoBatch && !opts.VocabOnly
	maxLen = opts.MaxLength
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
		return 0, fmt.Errorf("max_length %d exceeds n_ctx %d", opts.MaxLength, p.nCtx)
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
		return 0, fmt.Errorf("n_seq_max %d exceeds llama.cpp's limit of %d", p.nSeqMax, maxSeq)
	}
	if p.threads <= 0 {
		p.threads = runtime.NumCPU()
	}
	return maxLen, nil
}

// setPlacement sets where the layers go (GPU layers, split mode) and the
// attention kernel and KV cache types.
func (p *cparams) setPlacement(opts Options) error {
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
		return fmt.Errorf("unknown split mode %q (want layer, row or none)", opts.SplitMode)
	}
	switch strings.ToLower(opts.FlashAttn) {
	case "", "auto":
		p.flashAttn = -1
	case "on", "true", "1", "enabled":
		p.flashAttn = 1
	case "off", "false", "0", "disabled":
		p.flashAttn = 0
	default:
		return fmt.Errorf("flash_attn %q: want auto, on or off", opts.FlashAttn)
	}
	var err error
	if p.typeK, err = kvType(opts.TypeK); err != nil {
		return fmt.Errorf("type_k: %w", err)
	}
	if p.typeV, err = kvType(opts.TypeV); err != nil {
		return fmt.Errorf("type_v: %w", err)
	}
	// llama.cpp's CPU flash-attention kernel works in f16 whatever the
	// cache type, which makes results depend on how sequences are laid out
	// in batches (~1e-3). An f32 cache asks for exact attention, so "auto"
	// then means off.
	if p.flashAttn == -1 && p.typeK == kvTypes["f32"] && p.typeV == kvTypes["f32"] {
		p.flashAttn = 0
	}
	return nil
}

// sizing is what makeContext found: the KV bytes of one cell, the free
// memory AutoBatch sized to and the most cells the cache may grow to
// (0: a fixed size).
type sizing struct {
	kvTok   int64
	free    int64
	autoCap int
}

// makeContext makes the model's context (KV cache). With AutoBatch it is
// sized to free memory: n_ctx (and max_length, shrunk with a warning when
// even one sequence of it does not fit, in opts) as planAuto decides,
// starting at what the scheduler keeps in flight and growing as calls
// need, up to sz.autoCap.
func makeContext(c cmodel, facts gguf.Facts, p *cparams, opts *Options, maxLen int, sz *sizing) error {
	newContext := opts.newContext
	if newContext == nil {
		newContext = cContextInit
	}
	// flash_attn auto on the CPU: the engine picks the kernel per call
	// (flashFor), starting as for scoring.
	p.flashAuto = p.flashAttn == -1 && (p.gpuLayers == 0 || len(cModelDevices(c)) == 0)
	if !opts.AutoBatch {
		p.flashAttn = p.flashFor(scoring, p.nCtx)
		return newContext(c, *p)
	}
	// With flash_attn auto on the CPU a call may run without flash
	// attention: the larger compute buffer is the one to size for.
	cost := estimateCost(facts, sz.kvTok, p.nBatch, p.nUBatch, p.flashAttn == 1)
	var pools []memPool
	if opts.MemoryBudget > 0 {
		pools = []memPool{{Name: "memory budget", Free: opts.MemoryBudget, Share: 1}}
	} else {
		ci := cInfo(c)
		pools = freeMemory(cModelDevices(c), p.gpuLayers, ci.nLayer, ci.size, p.mmap)
	}
	free := int64(-1)
	for _, pl := range pools {
		if pl.Share > 0 && (free < 0 || pl.Free < free) {
			free = pl.Free
		}
	}
	sz.free = free
	nCtx, ml := planAuto(sizeRequest{Pools: pools, Cost: cost, MaxLength: maxLen, MaxLenGiven: opts.MaxLength > 0, NSeqMax: p.nSeqMax})
	if p.nCtx > 0 {
		nCtx = p.nCtx // n_ctx given: only n_seq_max was automatic
	} else if ml < maxLen {
		slog.Warn(fmt.Sprintf("batch size auto: free memory (%s) does not fit a %d-token context; max_length is %d", units.Bytes(free), maxLen, ml))
		opts.MaxLength = ml
	}
	// The cache starts at what the scheduler keeps in flight and grows
	// (reserve) when a call's work needs more, up to nCtx.
	start := nCtx
	if p.nCtx <= 0 {
		sz.autoCap = nCtx
		start = min(nCtx, inflightCells(facts, p.nBatch))
	}
	p.flashAttn = p.flashFor(scoring, start)
	if err := autoContext(c, p, start, min(start, max(opts.MaxLength, ml)), newContext); err != nil {
		return err
	}
	if sz.autoCap > 0 {
		sz.autoCap = max(sz.autoCap, p.nCtx)
	}
	return nil
}

// newModel gathers what the engine settled on (Settings) for a loaded model:
// llama.cpp's view of the context and vocabulary, the BOS and prefix
// tokens, the batch sizing, the devices, the max length.
func newModel(c cmodel, path string, opts Options, facts gguf.Facts, p cparams, sz sizing) (*Model, error) {
	ci := cInfo(c)
	m := &Model{c: c, path: path, opts: opts, facts: facts, params: p, autoCap: sz.autoCap}
	m.addBOS = ci.addBOS
	if opts.AddBOS != nil {
		m.addBOS = *opts.AddBOS
	}
	m.info = Settings{
		Path: path, Description: cDesc(c), Backend: "cpu", Devices: cModelDevices(c),
		NCtx: ci.nCtx, NCtxTrain: ci.nCtxTrain, NBatch: ci.nBatch, NUBatch: ci.nUBatch, NSeqMax: ci.nSeqMax,
		Threads: p.threads, GPULayers: p.gpuLayers, FlashAttn: flashSetting(p),
		TypeK: typeName(p.typeK), TypeV: typeName(p.typeV),
		NVocab: ci.nVocab, NEmbd: ci.nEmbd, NLayer: ci.nLayer, NParams: ci.nParams, Size: ci.size,
		BOS: ci.bos, EOS: ci.eos, EOT: ci.eot, AddBOS: m.addBOS, VocabType: vocabTypeName(ci.vocabType),
		Commit: LlamaCppCommit, KVBytesPerToken: sz.kvTok, FreeMemory: sz.free,
	}
	m.info.PrefixToken = m.info.BOS
	if m.info.PrefixToken < 0 {
		m.info.PrefixToken = m.info.EOS
	}
	if opts.PrefixToken != nil {
		if t := *opts.PrefixToken; t < 0 || int(t) >= ci.nVocab {
			return nil, fmt.Errorf("prefix token %d outside the vocabulary [0, %d)", t, ci.nVocab)
		}
		m.info.PrefixToken = *opts.PrefixToken
	}
	switch {
	case opts.AutoBatch && !opts.VocabOnly:
		m.info.Batch = "auto"
		slog.Info(fmt.Sprintf("batch size auto: n_ctx %d (grows to at most %d), n_seq_max %d (free memory %s, KV %d bytes/token)",
			ci.nCtx, m.maxCells(), ci.nSeqMax, units.Bytes(sz.free), sz.kvTok))
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
	return m, nil
}
