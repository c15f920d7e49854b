package gguf

import (
	"fmt"
	"strconv"
)

// Facts summarizes a model file for display and for sanity checks.
type Facts struct {
	Architecture string // general.architecture ("llama")
	Name         string // general.name
	// FileType is the quantization as llama.cpp's quantize tool names it
	// ("F32", "F16", "BF16", "Q8_0", "Q4_K_M", ...). When general.file_type
	// is absent it is guessed from the tensor types as llama.cpp does, and
	// FileTypeGuessed is set.
	FileType        string
	FileTypeGuessed bool

	Params        uint64  // total elements of all tensors
	FileSize      int64   // bytes
	BitsPerWeight float64 // 8 * tensor data bytes / Params; 0 without tensors

	// Hyperparameters from the architecture's keys ("llama.context_length",
	// ...); 0 when absent. HeadCountKV defaults to HeadCount, as in
	// llama.cpp. For per-layer arrays the first layer's value is given.
	ContextLength, EmbeddingLength, BlockCount uint64
	HeadCount, HeadCountKV, FeedForwardLength  uint64
	// KeyLength and ValueLength are the attention heads' key and value
	// sizes (ARCH.attention.key_length, value_length); 0 when absent, and
	// llama.cpp then uses EmbeddingLength / the layer's head count.
	// HeadCounts and HeadCountsKV are the head counts of each of the
	// BlockCount layers, from a scalar or a per-layer array (a negative or
	// missing entry is 0: for HeadCountsKV, a layer with no KV cache);
	// HeadCountsKV is HeadCounts when the file has no head_count_kv. The
	// engine sizes its KV cache from them; they are left out of JSON
	// (lmeval inspect --json), as the per-layer lists are long.
	KeyLength, ValueLength   uint64   `json:"-"`
	HeadCounts, HeadCountsKV []uint64 `json:"-"`

	VocabSize      int    // entries of tokenizer.ggml.tokens, else ARCH.vocab_size
	TokenizerModel string // tokenizer.ggml.model ("llama", "gpt2", ...)
	// Special token ids as stored in the file; -1 when absent (llama.cpp may
	// still assume defaults, e.g. BOS 1 / EOS 2 / UNK 0 for "llama").
	BOS, EOS, UNK  int
	AddBOS, AddEOS *bool // tokenizer.ggml.add_bos_token / add_eos_token; nil when absent
	ChatTemplate   string
}

// Facts extracts the model facts from the metadata and tensor index.
func (f *File) Facts() Facts {
	fc := Facts{FileSize: f.Size, BOS: -1, EOS: -1, UNK: -1}
	fc.Architecture, _ = f.String("general.architecture")
	fc.Name, _ = f.String("general.name")

	ft := guessFileType(f.Tensors)
	if v, ok := f.Uint("general.file_type"); ok && v <= 1<<31 {
		ft = FileType(v)
	}
	fc.FileTypeGuessed = ft&FileTypeGuessed != 0
	fc.FileType = (ft &^ FileTypeGuessed).String()

	var nbytes uint64
	for _, t := range f.Tensors {
		fc.Params += t.NumElements()
		nbytes += t.Bytes()
	}
	if fc.Params > 0 {
		fc.BitsPerWeight = 8 * float64(nbytes) / float64(fc.Params)
	}

	arch := fc.Architecture
	fc.ContextLength = f.layerUint(arch + ".context_length")
	fc.EmbeddingLength = f.layerUint(arch + ".embedding_length")
	fc.BlockCount = f.layerUint(arch + ".block_count")
	fc.HeadCount = f.layerUint(arch + ".attention.head_count")
	fc.HeadCountKV = fc.HeadCount
	if _, ok := f.Get(arch + ".attention.head_count_kv"); ok {
		fc.HeadCountKV = f.layerUint(arch + ".attention.head_count_kv")
	}
	fc.FeedForwardLength = f.layerUint(arch + ".feed_forward_length")
	fc.KeyLength, _ = f.Uint(arch + ".attention.key_length")
	fc.ValueLength, _ = f.Uint(arch + ".attention.value_length")
	n := int(min(fc.BlockCount, 1<<20))
	fc.HeadCounts = f.perLayer(arch+".attention.head_count", n)
	fc.HeadCountsKV = fc.HeadCounts
	if _, ok := f.Get(arch + ".attention.head_count_kv"); ok {
		fc.HeadCountsKV = f.perLayer(arch+".attention.head_count_kv", n)
	}

	if toks, ok := f.Strings("tokenizer.ggml.tokens"); ok {
		fc.VocabSize = len(toks)
	} else if n, ok := f.Uint(arch + ".vocab_size"); ok {
		fc.VocabSize = int(min(n, 1<<31))
	}
	fc.TokenizerModel, _ = f.String("tokenizer.ggml.model")
	fc.BOS = f.tokenID("tokenizer.ggml.bos_token_id")
	fc.EOS = f.tokenID("tokenizer.ggml.eos_token_id")
	fc.UNK = f.tokenID("tokenizer.ggml.unknown_token_id")
	if b, ok := f.Bool("tokenizer.ggml.add_bos_token"); ok {
		fc.AddBOS = &b
	}
	if b, ok := f.Bool("tokenizer.ggml.add_eos_token"); ok {
		fc.AddEOS = &b
	}
	fc.ChatTemplate, _ = f.String("tokenizer.chat_template")
	return fc
}

// layerUint reads a hyperparameter that may be a scalar or a per-layer
// array (llama.cpp's get_key_or_arr), taking the first element of an array.
func (f *File) layerUint(key string) uint64 {
	if n, ok := f.Uint(key); ok {
		return n
	}
	v, ok := f.Lookup(key)
	if !ok || v.Type != TypeArray || v.Len() == 0 {
		return 0
	}
	first := v.Data.([]any)[0]
	n, _ := toUint(first)
	return n
}

// perLayer reads a hyperparameter given as a scalar or a per-layer array
// (llama.cpp's get_key_or_arr) for n layers; negative or non-integer
// entries, and those past the array's end, are 0.
func (f *File) perLayer(key string, n int) []uint64 {
	out := make([]uint64, n)
	if v, ok := f.Uint(key); ok {
		for i := range out {
			out[i] = v
		}
		return out
	}
	if v, ok := f.Lookup(key); ok && v.Type == TypeArray {
		for i, e := range v.Data.([]any) {
			if i >= n {
				break
			}
			if x, err := strconv.ParseInt(fmt.Sprint(e), 10, 64); err == nil && x > 0 {
				out[i] = uint64(x)
			}
		}
	}
	return out
}

func (f *File) tokenID(key string) int {
	if n, ok := f.Uint(key); ok && n < 1<<31 {
		return int(n)
	}
	return -1
}

// CheckTokenizer checks the tokenizer metadata for the shapes llama.cpp's
// vocabulary loader assumes without checking: it aborts the process when
// tokenizer.ggml.tokens or tokenizer.ggml.merges are not string arrays or
// scores are strings, and reads past the end of tokenizer.ggml.scores
// (float32) and tokenizer.ggml.token_type (int32) when they are shorter
// than the token list. A file that passes is safe to hand to llama.cpp in
// this respect; one that fails gets an error naming the key.
func (f *File) CheckTokenizer() error {
	tokens, ok := f.Lookup("tokenizer.ggml.tokens")
	if !ok {
		return &FormatError{Path: f.Path, Msg: "no tokenizer: tokenizer.ggml.tokens is missing"}
	}
	if tokens.Type != TypeArray || tokens.Elem != TypeString {
		return &FormatError{Path: f.Path, Msg: fmt.Sprintf("tokenizer.ggml.tokens has type %s, want arr[str]", tokens.TypeName())}
	}
	n := tokens.Len()
	for _, c := range []struct {
		key  string
		elem ValueType
		n    int // required length; -1 for any
	}{
		{"tokenizer.ggml.scores", TypeFloat32, n},
		{"tokenizer.ggml.token_type", TypeInt32, n},
		{"tokenizer.ggml.merges", TypeString, -1},
	} {
		v, ok := f.Lookup(c.key)
		if !ok {
			continue
		}
		elemOK := v.Elem == c.elem || c.elem == TypeInt32 && v.Elem == TypeUint32 // read as C ints
		if v.Type != TypeArray || !elemOK || (c.n >= 0 && v.Len() != c.n) {
			want := fmt.Sprintf("arr[%s]", c.elem)
			if c.n >= 0 {
				want = fmt.Sprintf("arr[%s,%d] to match the tokens", c.elem, c.n)
			}
			return &FormatError{Path: f.Path, Msg: fmt.Sprintf("%s has type %s, want %s", c.key, v.TypeName(), want)}
		}
	}
	return nil
}
