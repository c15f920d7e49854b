package ggufwrite

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/gguf"
)

// Token types of tokenizer.ggml.token_type (llama.cpp's llama_token_type).
const (
	TokenNormal      int32 = 1
	TokenUnknown     int32 = 2
	TokenControl     int32 = 3
	TokenUserDefined int32 = 4
	TokenUnused      int32 = 5
	TokenByte        int32 = 6
)

// Vocab is a tokenizer vocabulary: parallel token texts, scores and types,
// and the special token ids (-1 for none).
type Vocab struct {
	Tokens        []string
	Scores        []float32
	Types         []int32
	BOS, EOS, UNK int
}

// SPMVocab returns a SentencePiece ("llama") vocabulary laid out as
// Llama's: <unk>=0, <s>=1, </s>=2, the 256 byte tokens <0x00>..<0xFF>, then
// pieces in order (duplicates and empty pieces dropped). Pieces use "▁"
// for a space. Earlier pieces get higher scores, so llama.cpp's SPM
// tokenizer prefers their merges. SPM only merges a pair of symbols whose
// joined text is itself a piece, so a word is reachable only through its
// intermediate pieces (SPMPieces makes them); text not covered falls back
// to byte tokens.
func SPMVocab(pieces []string) Vocab {
	v := Vocab{BOS: 1, EOS: 2, UNK: 0}
	add := func(text string, score float32, typ int32) {
		v.Tokens = append(v.Tokens, text)
		v.Scores = append(v.Scores, score)
		v.Types = append(v.Types, typ)
	}
	add("<unk>", 0, TokenUnknown)
	add("<s>", 0, TokenControl)
	add("</s>", 0, TokenControl)
	seen := map[string]bool{"<unk>": true, "<s>": true, "</s>": true}
	for b := 0; b < 256; b++ {
		t := fmt.Sprintf("<0x%02X>", b)
		seen[t] = true
		add(t, 0, TokenByte)
	}
	n := 0
	for _, p := range pieces {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		n++
		add(p, -float32(n), TokenNormal)
	}
	return v
}

// SPMPieces returns, for each word (spaces written as " " or "▁"), every
// prefix of it from its first character on, so that SPM can build the word
// by merging one character at a time. Prefixes come shortest first and
// without duplicates, ready for SPMVocab.
func SPMPieces(words ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		w = strings.ReplaceAll(w, " ", "▁")
		for i := range w {
			if i == 0 {
				continue
			}
			if p := w[:i]; !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// LlamaSpec describes a llama-architecture model. Zero fields take the
// defaults noted.
type LlamaSpec struct {
	Vocab   Vocab // default SPMVocab(nil): 259 tokens
	NEmbd   int   // default 64
	NLayer  int   // default 2
	NHead   int   // default 4
	NHeadKV int   // default NHead
	NFF     int   // default 2*NEmbd
	NCtx    int   // llama.context_length; default 256
	Seed    int64 // selects the random weights
	// Type of the 2-D weights: F32 (zero value), F16 or BF16. Norm weights
	// are F32 whatever the type, as llama.cpp's converter writes them.
	Type gguf.TensorType
	// AddBOS is tokenizer.ggml.add_bos_token.
	AddBOS bool
	// NoBOS leaves out tokenizer.ggml.bos_token_id and writes
	// add_bos_token false. llama.cpp still assumes BOS id 1 for an SPM
	// vocabulary without the key; readers of the metadata (gguf.Facts) see
	// BOS -1.
	NoBOS bool

	Name         string // general.name; default "ggufwrite-llama"
	ChatTemplate string // tokenizer.chat_template when not empty
	NormEps      float32
}

// RMSNormEps is the default llama.attention.layer_norm_rms_epsilon.
const RMSNormEps = 1e-5

func (s *LlamaSpec) defaults() error {
	if len(s.Vocab.Tokens) == 0 {
		s.Vocab = SPMVocab(nil)
	}
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	def(&s.NEmbd, 64)
	def(&s.NLayer, 2)
	def(&s.NHead, 4)
	def(&s.NHeadKV, s.NHead)
	def(&s.NFF, 2*s.NEmbd)
	def(&s.NCtx, 256)
	if s.Name == "" {
		s.Name = "ggufwrite-llama"
	}
	if s.NormEps == 0 {
		s.NormEps = RMSNormEps
	}
	v := s.Vocab
	switch {
	case s.NEmbd < 0 || s.NLayer < 0 || s.NHead < 0 || s.NHeadKV < 0 || s.NFF < 0 || s.NCtx < 0:
		return fmt.Errorf("negative size in %+v", *s)
	case s.NEmbd%s.NHead != 0 || (s.NEmbd/s.NHead)%2 != 0:
		return fmt.Errorf("n_embd %d must be n_head %d times an even head size", s.NEmbd, s.NHead)
	case s.NHead%s.NHeadKV != 0:
		return fmt.Errorf("n_head %d is not a multiple of n_head_kv %d", s.NHead, s.NHeadKV)
	case len(v.Scores) != len(v.Tokens) || len(v.Types) != len(v.Tokens):
		return fmt.Errorf("vocab has %d tokens, %d scores, %d types", len(v.Tokens), len(v.Scores), len(v.Types))
	case v.BOS >= len(v.Tokens) || v.EOS >= len(v.Tokens) || v.UNK >= len(v.Tokens):
		return fmt.Errorf("special token id beyond the %d-token vocab (BOS %d, EOS %d, UNK %d)", len(v.Tokens), v.BOS, v.EOS, v.UNK)
	}
	switch s.Type {
	case gguf.F32, gguf.F16, gguf.BF16:
	default:
		return fmt.Errorf("weight type %v: only F32, F16 and BF16 are written (quantize with llama.cpp)", s.Type)
	}
	return nil
}

// fileTypes maps the weight type to general.file_type (llama_ftype).
var fileTypes = map[gguf.TensorType]uint32{gguf.F32: 0, gguf.F16: 1, gguf.BF16: 32}

// Llama returns a llama-architecture model with the tensors and metadata
// llama.cpp's LLM_ARCH_LLAMA loader expects, and deterministic random
// weights: every weight matrix draws from a bounded bell-shaped
// distribution (sum of four uniforms) with standard deviation
// 1/sqrt(fan-in), so activations and logits stay of order one; norm weights
// are 1. The same spec and Seed always give the same bytes. An invalid spec
// is reported by WriteTo / WriteFile / Err.
func Llama(spec LlamaSpec) *File {
	f := New()
	if err := spec.defaults(); err != nil {
		f.errs = append(f.errs, fmt.Errorf("ggufwrite.Llama: %w", err))
		return f
	}
	u32 := func(n int) uint32 { return uint32(n) }
	f.SetKV("general.architecture", "llama")
	f.SetKV("general.name", spec.Name)
	f.SetKV("general.file_type", fileTypes[spec.Type])
	f.SetKV("general.alignment", uint32(gguf.DefaultAlignment))
	f.SetKV("llama.vocab_size", u32(len(spec.Vocab.Tokens)))
	f.SetKV("llama.context_length", u32(spec.NCtx))
	f.SetKV("llama.embedding_length", u32(spec.NEmbd))
	f.SetKV("llama.block_count", u32(spec.NLayer))
	f.SetKV("llama.feed_forward_length", u32(spec.NFF))
	f.SetKV("llama.attention.head_count", u32(spec.NHead))
	f.SetKV("llama.attention.head_count_kv", u32(spec.NHeadKV))
	f.SetKV("llama.rope.dimension_count", u32(spec.NEmbd/spec.NHead))
	f.SetKV("llama.attention.layer_norm_rms_epsilon", spec.NormEps)
	f.SetKV("tokenizer.ggml.model", "llama")
	f.SetKV("tokenizer.ggml.tokens", spec.Vocab.Tokens)
	f.SetKV("tokenizer.ggml.scores", spec.Vocab.Scores)
	f.SetKV("tokenizer.ggml.token_type", spec.Vocab.Types)
	if spec.Vocab.BOS >= 0 && !spec.NoBOS {
		f.SetKV("tokenizer.ggml.bos_token_id", u32(spec.Vocab.BOS))
	}
	if spec.Vocab.EOS >= 0 {
		f.SetKV("tokenizer.ggml.eos_token_id", u32(spec.Vocab.EOS))
	}
	if spec.Vocab.UNK >= 0 {
		f.SetKV("tokenizer.ggml.unknown_token_id", u32(spec.Vocab.UNK))
	}
	f.SetKV("tokenizer.ggml.add_bos_token", spec.AddBOS && !spec.NoBOS)
	f.SetKV("tokenizer.ggml.add_eos_token", false)
	if spec.ChatTemplate != "" {
		f.SetKV("tokenizer.chat_template", spec.ChatTemplate)
	}

	nEmbd, nVocab, nFF := uint64(spec.NEmbd), uint64(len(spec.Vocab.Tokens)), uint64(spec.NFF)
	nEmbdKV := nEmbd / uint64(spec.NHead) * uint64(spec.NHeadKV)
	var tensors []*floatTensor
	matrix := func(name string, cols, rows uint64) {
		tensors = append(tensors, &floatTensor{name: name, typ: spec.Type, shape: []uint64{cols, rows}, std: 1 / math.Sqrt(float64(cols))})
	}
	norm := func(name string) {
		tensors = append(tensors, &floatTensor{name: name, typ: gguf.F32, shape: []uint64{nEmbd}})
	}
	matrix("token_embd.weight", nEmbd, nVocab)
	norm("output_norm.weight")
	matrix("output.weight", nEmbd, nVocab)
	for i := 0; i < spec.NLayer; i++ {
		p := fmt.Sprintf("blk.%d.", i)
		matrix(p+"attn_q.weight", nEmbd, nEmbd)
		matrix(p+"attn_k.weight", nEmbd, nEmbdKV)
		matrix(p+"attn_v.weight", nEmbd, nEmbdKV)
		matrix(p+"attn_output.weight", nEmbd, nEmbd)
		norm(p + "attn_norm.weight")
		matrix(p+"ffn_gate.weight", nEmbd, nFF)
		matrix(p+"ffn_down.weight", nFF, nEmbd)
		matrix(p+"ffn_up.weight", nEmbd, nFF)
		norm(p + "ffn_norm.weight")
	}
	encodeAll(tensors, spec.Seed)
	for _, t := range tensors {
		if t.err != nil {
			f.errs = append(f.errs, fmt.Errorf("tensor %s: %w", t.name, t.err))
			continue
		}
		f.AddTensor(t.name, t.typ, t.shape, t.data)
	}
	return f
}

// floatTensor is a tensor of Llama's: random weights with standard
// deviation std, or ones (a norm) when std is 0.
type floatTensor struct {
	name  string
	typ   gguf.TensorType
	shape []uint64
	std   float64
	data  []byte // encoded by encodeAll
	err   error
}

// encodeAll draws and encodes the tensors' values on all CPUs: each
// tensor's values come from its own stream (randomWeights), so the bytes
// are the same in any order (an 8B-parameter model takes seconds, not
// minutes).
func encodeAll(tensors []*floatTensor, seed int64) {
	next := make(chan *floatTensor)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				n := uint64(1)
				for _, d := range t.shape {
					n *= d
				}
				values := ones(n)
				if t.std > 0 {
					values = randomWeights(seed, t.name, n, t.std)
				}
				t.data, t.err = EncodeFloats(t.typ, values)
			}
		}()
	}
	for _, t := range tensors {
		next <- t
	}
	close(next)
	wg.Wait()
}

// WriteLlama writes Llama(spec) to path.
func WriteLlama(path string, spec LlamaSpec) error {
	return Llama(spec).WriteFile(path)
}

func ones(n uint64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// randomWeights draws n values with standard deviation std from a PCG
// stream keyed by the seed and the tensor name, so a tensor's values do
// not depend on the other tensors. Each value is a centred sum of four
// uniforms (Irwin-Hall): bell-shaped, bounded by ±2*sqrt(3)*std, and free
// of floating-point library calls, so identical on every platform.
func randomWeights(seed int64, name string, n uint64, std float64) []float32 {
	h := fnv.New64a()
	h.Write([]byte(name))
	// PCG's output is fixed by its definition; uniforms are derived here
	// rather than with rand.Rand's methods, whose algorithms may change.
	r := rand.NewPCG(uint64(seed), h.Sum64())
	u := func() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }
	scale := std * math.Sqrt(3) // var(sum of 4 U(0,1)) = 1/3
	v := make([]float32, n)
	for i := range v {
		s := u() + u() + u() + u()
		v[i] = float32((s - 2) * scale)
	}
	return v
}
