package engine

// cgo in this package: this file wraps csrc/lmeval.h (loading, decoding,
// scoring, sampling, KV operations, and the log and load-progress
// callbacks); dist.go, echo.go and quantize.go call csrc/quantdist.h's
// next-token statistics (lm_dist_topk, lm_dist_compare) and quantization
// (lm_quantize) where they convert their arguments. No other file imports
// "C", and no other package does. The native archives and their link
// flags come from build/<backend>/cgo.env (see the Makefile); no flags are
// hand-copied here.

/*
#include <stdlib.h>
#if !__has_include("lmeval.h")
#error "lmeval: the native engine's cgo flags are not set: build and test with 'make' / 'make test', or run eval \"$(make -s env)\" first (see docs/build.md)"
#endif
#include "lmeval.h"

extern void lmevalGoLog(int level, char *text);
static void lmeval_init_go(void) { lm_init((lm_log_fn)lmevalGoLog); }

extern int32_t lmevalGoLoadProgress(float progress, uintptr_t id);
static void lmeval_set_progress(lm_params *p, uintptr_t id) {
	p->progress = (lm_progress_fn)lmevalGoLoadProgress;
	p->progress_id = id;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

var initOnce sync.Once

func nativeInit() {
	initOnce.Do(func() {
		lavapipeThreads()
		C.lmeval_init_go()
	})
}

//export lmevalGoLog
func lmevalGoLog(level C.int, text *C.char) {
	logNative(int(level), C.GoString(text))
}

//export lmevalGoLoadProgress
func lmevalGoLoadProgress(progress C.float, id C.uintptr_t) C.int32_t {
	loadProgressNative(uintptr(id), float64(progress))
	return 1
}

// cparams mirrors lm_params.
type cparams struct {
	nCtx, nBatch, nUBatch, nSeqMax, threads int
	gpuLayers, mainGPU, splitMode           int
	tensorSplit                             []float32
	flashAttn                               int
	// flashAuto: flash_attn is auto on the CPU, so the engine picks it per
	// call (flashFor); Go only, not passed to C.
	flashAuto       bool
	nHead, headSize int // heads and key length, for flashFor
	typeK, typeV    int
	vocabOnly, mmap bool
	noContext       bool
	progressID      uintptr // a loadProgress handle; 0: none
}

func b2i(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

func cLoad(path string, p cparams) (*C.lm_model, error) {
	nativeInit()
	cp := p.contextParams()
	cp.n_gpu_layers = C.int32_t(p.gpuLayers)
	cp.main_gpu = C.int32_t(p.mainGPU)
	cp.split_mode = C.int32_t(p.splitMode)
	for i, v := range p.tensorSplit {
		if i < C.LM_MAX_TENSOR_SPLIT {
			cp.tensor_split[i] = C.float(v)
		}
	}
	cp.vocab_only = b2i(p.vocabOnly)
	cp.use_mmap = b2i(p.mmap)
	cp.no_context = b2i(p.noContext)
	if p.progressID != 0 {
		C.lmeval_set_progress(&cp, C.uintptr_t(p.progressID))
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var errbuf [512]C.char
	m := C.lm_load(cpath, &cp, &errbuf[0], C.int32_t(len(errbuf)))
	if m == nil {
		return nil, errors.New(C.GoString(&errbuf[0]))
	}
	return m, nil
}

// contextParams fills the context's part of lm_params, which both loading
// and a later lm_context_init take.
func (p cparams) contextParams() C.lm_params {
	var cp C.lm_params
	cp.n_ctx = C.int32_t(p.nCtx)
	cp.n_batch = C.int32_t(p.nBatch)
	cp.n_ubatch = C.int32_t(p.nUBatch)
	cp.n_seq_max = C.int32_t(p.nSeqMax)
	cp.n_threads = C.int32_t(p.threads)
	cp.flash_attn = C.int32_t(p.flashAttn)
	cp.type_k = C.int32_t(p.typeK)
	cp.type_v = C.int32_t(p.typeV)
	return cp
}

// cContextInit makes the context of a model loaded with noContext.
func cContextInit(m *C.lm_model, p cparams) error {
	cp := p.contextParams()
	var errbuf [512]C.char
	if C.lm_context_init(m, &cp, &errbuf[0], C.int32_t(len(errbuf))) != 0 {
		return errors.New(C.GoString(&errbuf[0]))
	}
	return nil
}

// Device is one of ggml's backend devices and its memory.
type Device struct {
	Name        string // ggml's name: "CPU", "Vulkan0", "CUDA0"
	Description string // the driver's: "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA GeForce RTX 4090"
	Backend     string // ggml backend: "CPU", "Vulkan", "CUDA", "Metal"
	Type        string // "cpu", "gpu", "igpu" or "accel"
	Free, Total uint64 // bytes, as the backend reports them
}

// Devices lists the devices the native engine can use, with their free
// and total memory.
func Devices() []Device {
	nativeInit()
	var buf [32]C.lm_device
	n := int(C.lm_devices(&buf[0], C.int32_t(len(buf))))
	return goDevices(buf[:min(n, len(buf))])
}

// Backends lists the ggml backends built into the native engine ("CPU",
// "CUDA", "Vulkan", "Metal"), whether or not they found a device.
func Backends() []string {
	nativeInit()
	var out []string
	for i := 0; ; i++ {
		name := C.lm_backend_name(C.int32_t(i))
		if name == nil {
			return out
		}
		out = append(out, C.GoString(name))
	}
}

// cModelDevices lists the devices a model's layers are offloaded to
// (none when it runs on the CPU).
func cModelDevices(m *C.lm_model) []Device {
	var buf [32]C.lm_device
	n := int(C.lm_model_devices(m, &buf[0], C.int32_t(len(buf))))
	return goDevices(buf[:min(n, len(buf))])
}

func goDevices(ds []C.lm_device) []Device {
	out := make([]Device, 0, len(ds))
	for _, d := range ds {
		typ := [...]string{"cpu", "gpu", "igpu", "accel"}
		t := "other"
		if int(d._type) >= 0 && int(d._type) < len(typ) {
			t = typ[d._type]
		}
		out = append(out, Device{
			Name: C.GoString(&d.name[0]), Description: C.GoString(&d.description[0]), Backend: C.GoString(&d.backend[0]),
			Type: t, Free: uint64(d.free), Total: uint64(d.total),
		})
	}
	return out
}

// cContextFree frees a model's context; cContextInit may follow.
func cContextFree(m *C.lm_model) { C.lm_context_free(m) }

type cinfo struct {
	nVocab, nCtxTrain, nEmbd, nLayer, nHead, nHeadKV int
	nCtx, nBatch, nUBatch, nSeqMax                   int
	bos, eos, eot, nl                                int32
	addBOS, addEOS                                   bool
	nParams, size                                    uint64
	vocabType                                        int
}

func cInfo(m *C.lm_model) cinfo {
	var o C.lm_info
	C.lm_get_info(m, &o)
	return cinfo{
		nVocab: int(o.n_vocab), nCtxTrain: int(o.n_ctx_train), nEmbd: int(o.n_embd),
		nLayer: int(o.n_layer), nHead: int(o.n_head), nHeadKV: int(o.n_head_kv),
		nCtx: int(o.n_ctx), nBatch: int(o.n_batch), nUBatch: int(o.n_ubatch), nSeqMax: int(o.n_seq_max),
		bos: int32(o.bos), eos: int32(o.eos), eot: int32(o.eot), nl: int32(o.nl),
		addBOS: o.add_bos != 0, addEOS: o.add_eos != 0,
		nParams: uint64(o.n_params), size: uint64(o.size), vocabType: int(o.vocab_type),
	}
}

// cString calls a C string getter that reports the full length, growing
// the buffer once if needed.
func cString(get func(buf *C.char, n C.int32_t) C.int32_t) (string, bool) {
	buf := make([]byte, 256)
	for {
		n := int(get((*C.char)(unsafe.Pointer(&buf[0])), C.int32_t(len(buf))))
		if n < 0 {
			return "", false
		}
		if n < len(buf) {
			return string(buf[:n]), true
		}
		buf = make([]byte, n+1)
	}
}

func cDesc(m *C.lm_model) string {
	s, _ := cString(func(b *C.char, n C.int32_t) C.int32_t { return C.lm_desc(m, b, n) })
	return s
}

func cMeta(m *C.lm_model, key string) (string, bool) {
	ck := C.CString(key)
	defer C.free(unsafe.Pointer(ck))
	return cString(func(b *C.char, n C.int32_t) C.int32_t { return C.lm_meta(m, ck, b, n) })
}

func cChatTemplate(m *C.lm_model) (string, bool) {
	return cString(func(b *C.char, n C.int32_t) C.int32_t { return C.lm_chat_template(m, b, n) })
}

func cTokenize(m *C.lm_model, text string, addSpecial, parseSpecial bool) ([]int32, error) {
	// llama_tokenize reads len bytes; an empty text still needs a valid
	// pointer.
	data := []byte(text)
	if len(data) == 0 {
		data = []byte{0}
	}
	ctext := (*C.char)(unsafe.Pointer(&data[0]))
	out := make([]int32, len(text)+8)
	for {
		var p *C.int32_t
		if len(out) > 0 {
			p = (*C.int32_t)(unsafe.Pointer(&out[0]))
		}
		n := int(C.lm_tokenize(m, ctext, C.int32_t(len(text)), p, C.int32_t(len(out)), b2i(addSpecial), b2i(parseSpecial)))
		if n >= 0 {
			return out[:n], nil
		}
		if -n <= len(out) {
			return nil, fmt.Errorf("tokenize failed (%d)", n)
		}
		out = make([]int32, -n)
	}
}

func cPiece(m *C.lm_model, tok int32, special bool) string {
	buf := make([]byte, 64)
	for {
		n := int(C.lm_token_to_piece(m, C.int32_t(tok), (*C.char)(unsafe.Pointer(&buf[0])), C.int32_t(len(buf)), b2i(special)))
		if n >= 0 {
			return string(buf[:n])
		}
		buf = make([]byte, -n)
	}
}

func cDetokenize(m *C.lm_model, toks []int32, removeSpecial, unparseSpecial bool) (string, error) {
	if len(toks) == 0 {
		return "", nil
	}
	buf := make([]byte, 8*len(toks)+16)
	for {
		n := int(C.lm_detokenize(m, (*C.int32_t)(unsafe.Pointer(&toks[0])), C.int32_t(len(toks)),
			(*C.char)(unsafe.Pointer(&buf[0])), C.int32_t(len(buf)), b2i(removeSpecial), b2i(unparseSpecial)))
		if n >= 0 {
			return string(buf[:n]), nil
		}
		if -n <= len(buf) {
			return "", fmt.Errorf("detokenize failed (%d)", n)
		}
		buf = make([]byte, -n)
	}
}

func cIsEOG(m *C.lm_model, tok int32) bool { return C.lm_is_eog(m, C.int32_t(tok)) != 0 }

func cMemClear(m *C.lm_model) { C.lm_mem_clear(m) }

func cSeqRm(m *C.lm_model, seq int32) { C.lm_seq_rm(m, C.int32_t(seq), -1, -1) }

// batch is a llama_batch under construction in Go memory; cDecode copies
// it into the C-owned llama_batch.
type batch struct {
	tokens, pos []int32
	seqOff      []int32 // len(tokens)+1 offsets into seqIDs
	seqIDs      []int32
	want        []uint8
}

func (b *batch) reset() {
	b.tokens, b.pos, b.seqIDs, b.want = b.tokens[:0], b.pos[:0], b.seqIDs[:0], b.want[:0]
	b.seqOff = append(b.seqOff[:0], 0)
}

// add appends a token and returns its batch index.
func (b *batch) add(tok, pos int32, seqs []int32, want bool) int32 {
	b.tokens = append(b.tokens, tok)
	b.pos = append(b.pos, pos)
	b.seqIDs = append(b.seqIDs, seqs...)
	b.seqOff = append(b.seqOff, int32(len(b.seqIDs)))
	w := uint8(0)
	if want {
		w = 1
	}
	b.want = append(b.want, w)
	return int32(len(b.tokens) - 1)
}

func (b *batch) len() int { return len(b.tokens) }

func cDecode(m *C.lm_model, b *batch) int {
	if b.len() == 0 {
		return 0
	}
	return int(C.lm_decode(m, C.int32_t(b.len()),
		(*C.int32_t)(unsafe.Pointer(&b.tokens[0])), (*C.int32_t)(unsafe.Pointer(&b.pos[0])),
		(*C.int32_t)(unsafe.Pointer(&b.seqOff[0])), (*C.int32_t)(unsafe.Pointer(&b.seqIDs[0])),
		(*C.uint8_t)(unsafe.Pointer(&b.want[0]))))
}

// scoreItems lists, for the last decode, which rows score which targets
// into which result slots.
type scoreItems struct {
	rows, targets, slots []int32
}

func (s *scoreItems) reset() { s.rows, s.targets, s.slots = s.rows[:0], s.targets[:0], s.slots[:0] }

func (s *scoreItems) add(row, target, slot int32) {
	s.rows = append(s.rows, row)
	s.targets = append(s.targets, target)
	s.slots = append(s.slots, slot)
}

func cScore(m *C.lm_model, it *scoreItems, lp []float64, greedy []uint8) error {
	if len(it.rows) == 0 {
		return nil
	}
	rc := C.lm_score(m, C.int32_t(len(it.rows)), (*C.int32_t)(unsafe.Pointer(&it.rows[0])),
		(*C.int32_t)(unsafe.Pointer(&it.targets[0])), (*C.int32_t)(unsafe.Pointer(&it.slots[0])),
		(*C.double)(unsafe.Pointer(&lp[0])), (*C.uint8_t)(unsafe.Pointer(&greedy[0])))
	if rc != 0 {
		return fmt.Errorf("scoring logits failed (%d)", int(rc))
	}
	return nil
}

func cArgmax(m *C.lm_model, rows []int32, out []int32) error {
	if len(rows) == 0 {
		return nil
	}
	if C.lm_argmax(m, C.int32_t(len(rows)), (*C.int32_t)(unsafe.Pointer(&rows[0])), (*C.int32_t)(unsafe.Pointer(&out[0]))) != 0 {
		return errors.New("argmax: no logits for a row")
	}
	return nil
}

func cLogits(m *C.lm_model, row int32, out []float32) error {
	if C.lm_logits(m, C.int32_t(row), (*C.float)(unsafe.Pointer(&out[0])), C.int32_t(len(out))) < 0 {
		return fmt.Errorf("no logits for batch row %d", row)
	}
	return nil
}

type csampler = *C.lm_sampler

type cmodel = *C.lm_model

func cSamplerNew(m *C.lm_model, temp, topP float64, topK int, seed uint32) csampler {
	return C.lm_sampler_new(m, C.float(temp), C.float(topP), C.int32_t(topK), C.uint32_t(seed))
}

func cSample(s csampler, m *C.lm_model, row int32) int32 {
	return int32(C.lm_sampler_sample(s, m, C.int32_t(row)))
}

func cSamplerFree(s csampler) { C.lm_sampler_free(s) }

func cFree(m *C.lm_model) { C.lm_free(m) }

// SystemInfo describes the CPU features and backends the native engine was
// built with (llama.cpp's llama_print_system_info).
func SystemInfo() string {
	nativeInit()
	return C.GoString(C.lm_system_info())
}

// GPUOffload reports whether a GPU backend is built in.
func GPUOffload() bool {
	nativeInit()
	return C.lm_supports_gpu_offload() != 0
}
