package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

const sharedModels = "../../shared/models"

func sharedFile(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(sharedModels, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not available (../shared absent?): %v", p, err)
	}
	return p
}

func TestStories260K(t *testing.T) {
	path := sharedFile(t, "stories260K.gguf")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const (
		nEmbd, nLayer, nHead, nHeadKV, nFF, nVocab, nCtx = 64, 5, 8, 4, 172, 512, 2048
	)
	nEmbdKV := nEmbd / nHead * nHeadKV
	// Parameter count from the known shapes of a llama model.
	perLayer := nEmbd*nEmbd*2 + nEmbd*nEmbdKV*2 + 3*nEmbd*nFF + 2*nEmbd
	wantParams := uint64(2*nEmbd*nVocab + nEmbd + nLayer*perLayer)

	got := f.Facts()
	want := Facts{
		Architecture: "llama", Name: "llama", FileType: "F32", FileTypeGuessed: true,
		Params: wantParams, FileSize: 1185376, BitsPerWeight: 32,
		ContextLength: nCtx, EmbeddingLength: nEmbd, BlockCount: nLayer,
		HeadCount: nHead, HeadCountKV: nHeadKV, FeedForwardLength: nFF,
		HeadCounts: []uint64{nHead, nHead, nHead, nHead, nHead}, HeadCountsKV: []uint64{nHeadKV, nHeadKV, nHeadKV, nHeadKV, nHeadKV},
		VocabSize: nVocab, TokenizerModel: "llama", BOS: 1, EOS: 2, UNK: 0,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Facts:\n got %+v\nwant %+v", got, want)
	}
	if f.Version != 3 || f.Alignment != 32 || f.DataOffset%32 != 0 {
		t.Errorf("version %d alignment %d data offset %d", f.Version, f.Alignment, f.DataOffset)
	}
	if n := len(f.Tensors); n != 3+9*nLayer {
		t.Errorf("%d tensors, want %d", n, 3+9*nLayer)
	}
	// All F32 with row sizes that keep every tensor 32-byte aligned: the
	// data section is exactly 4 bytes per parameter and ends the file.
	if f.DataOffset+4*int64(wantParams) != f.Size {
		t.Errorf("data offset %d + 4*%d params != file size %d", f.DataOffset, wantParams, f.Size)
	}
	ffnUp, ok := f.Tensor("blk.3.ffn_up.weight")
	if !ok || !reflect.DeepEqual(ffnUp.Shape, []uint64{nEmbd, nFF}) || ffnUp.Type != F32 {
		t.Errorf("blk.3.ffn_up.weight = %+v, %v", ffnUp, ok)
	}
	if eps, ok := f.Float("llama.attention.layer_norm_rms_epsilon"); !ok || math.Abs(eps-1e-5) > 1e-12 {
		t.Errorf("rms eps = %v, %v", eps, ok)
	}
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	if len(toks) != nVocab || toks[0] != "<unk>" || toks[1] != "<s>" || toks[2] != "</s>" || toks[3] != "<0x00>" {
		t.Errorf("tokens start %q", toks[:4])
	}
	// Norm weights of a trained model: finite, not all equal.
	norm, err := f.TensorData("output_norm.weight")
	if err != nil {
		t.Fatal(err)
	}
	if len(norm) != 4*nEmbd {
		t.Fatalf("output_norm.weight: %d bytes", len(norm))
	}
	distinct := map[uint32]bool{}
	for i := 0; i < len(norm); i += 4 {
		x := math.Float32frombits(binary.LittleEndian.Uint32(norm[i:]))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("output_norm.weight[%d] = %v", i/4, x)
		}
		distinct[math.Float32bits(x)] = true
	}
	if len(distinct) < 10 {
		t.Errorf("output_norm.weight has only %d distinct values", len(distinct))
	}
}

func TestVocabFiles(t *testing.T) {
	tru, fls := true, false
	tests := []struct {
		file          string
		arch, model   string
		vocab         int
		bos, eos, unk int
		addBOS        *bool
		template      string // prefix
	}{
		{"vocab/ggml-vocab-llama-spm.gguf", "llama", "llama", 32000, 1, 2, 0, &tru, ""},
		{"vocab/ggml-vocab-gpt-2.gguf", "gpt2", "gpt2", 50257, 50256, 50256, -1, nil, ""},
		{"vocab/ggml-vocab-phi-3.gguf", "phi3", "llama", 32064, 1, 32000, 0, &tru, "{{ bos_token }}"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Open(sharedFile(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			fc := f.Facts()
			if fc.Architecture != tt.arch || fc.TokenizerModel != tt.model || fc.VocabSize != tt.vocab ||
				fc.BOS != tt.bos || fc.EOS != tt.eos || fc.UNK != tt.unk {
				t.Errorf("facts %+v", fc)
			}
			if !reflect.DeepEqual(fc.AddBOS, tt.addBOS) {
				t.Errorf("AddBOS = %v, want %v", fc.AddBOS, tt.addBOS)
			}
			if tt.addBOS != nil && !reflect.DeepEqual(fc.AddEOS, &fls) {
				t.Errorf("AddEOS = %v, want false", fc.AddEOS)
			}
			if !strings.HasPrefix(fc.ChatTemplate, tt.template) || (tt.template == "") != (fc.ChatTemplate == "") {
				t.Errorf("chat template %.40q", fc.ChatTemplate)
			}
			// Vocabulary-only files: no tensors, general.file_type 1 (F16).
			if len(f.Tensors) != 0 || fc.Params != 0 || fc.BitsPerWeight != 0 || fc.FileType != "F16" || fc.FileTypeGuessed {
				t.Errorf("tensors %d params %d bpw %v file type %q guessed %v", len(f.Tensors), fc.Params, fc.BitsPerWeight, fc.FileType, fc.FileTypeGuessed)
			}
			if fc.FileSize != f.Size || f.Size <= 0 {
				t.Errorf("file size %d / %d", fc.FileSize, f.Size)
			}
		})
	}
}

// image builds GGUF bytes by hand, independently of ggufwrite, so that
// malformed files can be made field by field.
type image struct{ bytes.Buffer }

func (b *image) u32(v uint32) *image { binary.Write(&b.Buffer, binary.LittleEndian, v); return b }
func (b *image) u64(v uint64) *image { binary.Write(&b.Buffer, binary.LittleEndian, v); return b }
func (b *image) str(s string) *image { b.u64(uint64(len(s))); b.WriteString(s); return b }
func (b *image) header(version uint32, nTensors, nKV uint64) *image {
	b.WriteString("GGUF")
	return b.u32(version).u64(nTensors).u64(nKV)
}
func (b *image) kvU32(key string, v uint32) *image { return b.str(key).u32(uint32(TypeUint32)).u32(v) }
func (b *image) kvStr(key, v string) *image        { return b.str(key).u32(uint32(TypeString)).str(v) }
func (b *image) tensor(name string, typ TensorType, off uint64, shape ...uint64) *image {
	b.str(name).u32(uint32(len(shape)))
	for _, d := range shape {
		b.u64(d)
	}
	return b.u32(uint32(typ)).u64(off)
}
func (b *image) padTo(align int) *image {
	for b.Len()%align != 0 {
		b.WriteByte(0)
	}
	return b
}
func (b *image) zeros(n int) *image { b.Write(make([]byte, n)); return b }

// validImage is a two-tensor file: an F32 [4] vector and a Q8_0 [32,2]
// matrix (2 blocks of 34 bytes).
func validImage() []byte {
	b := new(image).header(3, 2, 3)
	b.kvStr("general.architecture", "llama")
	b.str("tokenizer.ggml.tokens").u32(uint32(TypeArray)).u32(uint32(TypeString)).u64(2).str("a").str("bc")
	b.kvU32("general.alignment", 32)
	b.tensor("norm", F32, 0, 4)
	b.tensor("w", Q8_0, 32, 32, 2)
	b.padTo(32).zeros(16).padTo(32).zeros(68)
	return b.Bytes()
}

func TestReadValidImage(t *testing.T) {
	data := validImage()
	f, err := Read(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := []TensorInfo{
		{Name: "norm", Shape: []uint64{4}, Type: F32, Offset: 0},
		{Name: "w", Shape: []uint64{32, 2}, Type: Q8_0, Offset: 32},
	}
	if !reflect.DeepEqual(f.Tensors, want) {
		t.Errorf("tensors %+v", f.Tensors)
	}
	if f.Tensors[1].Bytes() != 68 || f.Tensors[1].NumElements() != 64 {
		t.Errorf("w: %d bytes %d elements", f.Tensors[1].Bytes(), f.Tensors[1].NumElements())
	}
	if toks, ok := f.Strings("tokenizer.ggml.tokens"); !ok || !reflect.DeepEqual(toks, []string{"a", "bc"}) {
		t.Errorf("tokens %q %v", toks, ok)
	}
	if v, _ := f.Lookup("tokenizer.ggml.tokens"); v.TypeName() != "arr[str,2]" {
		t.Errorf("type name %q", v.TypeName())
	}
	if f.DataOffset != int64(len(data)-32-68) {
		t.Errorf("data offset %d", f.DataOffset)
	}
	fc := f.Facts()
	if fc.Params != 68 || fc.BitsPerWeight != 8*(16+68)/68.0 || fc.FileType != "F32" || !fc.FileTypeGuessed {
		t.Errorf("facts %+v", fc)
	}
	// Every strict prefix ends inside the last tensor or earlier.
	for n := 0; n < len(data); n++ {
		_, err := Read(bytes.NewReader(data[:n]), int64(n))
		if !errors.Is(err, ErrFormat) {
			t.Fatalf("prefix of %d bytes: err = %v, want a format error", n, err)
		}
	}
}

func TestAccessors(t *testing.T) {
	b := new(image).header(3, 0, 8)
	b.str("u8").u32(uint32(TypeUint8)).WriteByte(200)
	b.str("i16").u32(uint32(TypeInt16)).Write([]byte{0xfe, 0xff}) // -2
	b.str("i64").u32(uint32(TypeInt64)).u64(1 << 40)
	b.str("f64").u32(uint32(TypeFloat64)).u64(math.Float64bits(0.25))
	b.str("b").u32(uint32(TypeBool)).WriteByte(1)
	b.kvStr("s", "héllo")
	b.str("i32s").u32(uint32(TypeArray)).u32(uint32(TypeInt32)).u64(3).u32(1).u32(0xffffffff).u32(7)
	b.str("heads").u32(uint32(TypeArray)).u32(uint32(TypeUint32)).u64(2).u32(12).u32(6)
	f, err := Read(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"Uint(u8)", must(f.Uint("u8")), uint64(200)},
		{"Uint(i16)", ok(f.Uint("i16")), false},
		{"Int(i16)", must(f.Int("i16")), int64(-2)},
		{"Uint(i64)", must(f.Uint("i64")), uint64(1 << 40)},
		{"Float(f64)", must(f.Float("f64")), 0.25},
		{"Float(u8)", ok(f.Float("u8")), false},
		{"Bool(b)", must(f.Bool("b")), true},
		{"String(s)", must(f.String("s")), "héllo"},
		{"String(u8)", ok(f.String("u8")), false},
		{"Get(i32s)", must(f.Get("i32s")), []any{int32(1), int32(-1), int32(7)}},
		{"Strings(i32s)", ok(f.Strings("i32s")), false},
		{"Uint(missing)", ok(f.Uint("missing")), false},
		{"layerUint(heads)", f.layerUint("heads"), uint64(12)},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.name, tt.got, tt.want)
		}
	}
}

func must[T any](v T, ok bool) any {
	if !ok {
		return "<absent>"
	}
	return v
}

func ok[T any](_ T, ok bool) bool { return ok }

func TestMalformed(t *testing.T) {
	valid := validImage()
	// patch returns valid with b written at offset off.
	patch := func(off int, b ...byte) []byte {
		c := bytes.Clone(valid)
		copy(c[off:], b)
		return c
	}
	le := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	oneKV := new(image).header(3, 0, 1).kvStr("general.architecture", "llama").Bytes()
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a GGUF file (0 bytes"},
		{"zip", []byte("PK\x03\x04rest of a zip file"), `not a GGUF file (magic "PK\x03\x04"`},
		{"version 1", new(image).header(1, 0, 0).Bytes(), "unsupported GGUF version 1"},
		{"version 4", new(image).header(4, 0, 0).Bytes(), "unsupported GGUF version 4"},
		{"version 0", new(image).header(0, 0, 0).Bytes(), "bad GGUF version 0"},
		{"big endian", new(image).header(3<<24, 0, 0).Bytes(), "byte order"},
		{"kv count", new(image).header(3, 0, 1<<62).Bytes(), "metadata count 4611686018427387904 cannot fit"},
		{"tensor count", patch(8, le(1<<40)...), "tensor count 1099511627776 cannot fit"},
		{"key length", patch(24, le(1<<62)...), "key of metadata entry 0 at byte 24: string length 4611686018427387904 exceeds"},
		{"string array count", new(image).header(3, 0, 1).str("k").u32(uint32(TypeArray)).u32(uint32(TypeString)).u64(1 << 50).zeros(64).Bytes(), `metadata "k": array of 1125899906842624 strings cannot fit`},
		{"u64 array count", new(image).header(3, 0, 1).str("k").u32(uint32(TypeArray)).u32(uint32(TypeUint64)).u64(1 << 61).zeros(64).Bytes(), `metadata "k": array of 2305843009213693952 u64 values cannot fit`},
		{"nested array", new(image).header(3, 0, 1).str("k").u32(uint32(TypeArray)).u32(uint32(TypeArray)).u64(1).zeros(64).Bytes(), `metadata "k" is an array of invalid type arr`},
		{"value type", new(image).header(3, 0, 1).str("k").u32(13).zeros(8).Bytes(), `metadata "k" has invalid type 13`},
		{"empty key", new(image).header(3, 0, 1).str("").u32(uint32(TypeUint8)).zeros(8).Bytes(), "has an empty key"},
		{"duplicate key", new(image).header(3, 0, 2).kvU32("a", 1).kvU32("a", 2).Bytes(), `duplicate metadata key "a"`},
		{"alignment type", new(image).header(3, 0, 1).str("general.alignment").u32(uint32(TypeUint64)).u64(32).Bytes(), "general.alignment has type u64, want u32"},
		{"alignment value", new(image).header(3, 0, 1).kvU32("general.alignment", 24).Bytes(), "general.alignment 24 is not a power of 2"},
		{"tensor name", new(image).header(3, 1, 0).tensor(strings.Repeat("x", 64), F32, 0, 1).padTo(32).zeros(4).Bytes(), "is too long: 64 bytes, at most 63"},
		{"duplicate tensor", new(image).header(3, 2, 0).tensor("t", F32, 0, 1).tensor("t", F32, 32, 1).padTo(32).zeros(36).Bytes(), `duplicate tensor name "t"`},
		{"dims", new(image).header(3, 1, 0).tensor("t", F32, 0, 1, 1, 1, 1, 1).zeros(32).Bytes(), "tensor t has 5 dimensions, at most 4"},
		{"zero dim", new(image).header(3, 1, 0).tensor("t", F32, 0, 4, 0).zeros(32).Bytes(), "tensor t dimension 1 is 0"},
		{"negative dim", new(image).header(3, 1, 0).tensor("t", F32, 0, 1<<63).zeros(32).Bytes(), "tensor t dimension 0 is -9223372036854775808"},
		{"huge shape", new(image).header(3, 1, 0).tensor("t", F32, 0, 1<<32, 1<<31).zeros(32).Bytes(), "has too many elements"},
		{"tensor type", new(image).header(3, 1, 0).tensor("t", 4, 0, 32).zeros(32).Bytes(), "tensor t has invalid type 4"},
		{"block size", new(image).header(3, 1, 0).tensor("t", Q4_K, 0, 172, 2).zeros(32).Bytes(), "rows of 172 elements, not a multiple of its block size 256"},
		{"offset", new(image).header(3, 2, 0).tensor("a", F32, 0, 4).tensor("b", F32, 16, 4).padTo(32).zeros(64).Bytes(), "tensor b has data offset 16, want 32"},
		{"truncated tensor", valid[:len(valid)-1], fmt.Sprintf("truncated: tensor w ends at byte %d beyond file size %d", len(valid), len(valid)-1)},
		{"truncated key", oneKV[:40], "key of metadata entry 0 at byte 24: string length 20 exceeds the 8 bytes left in the file"},
		{"truncated metadata", oneKV[:60], `truncated: file ends at byte 60 while reading metadata "general.architecture"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tt.data), int64(len(tt.data)))
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant a format error containing %q", err, tt.want)
			}
		})
	}
}

func TestOpenErrorsNameFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(bad, []byte("GGML\x01\x00\x00\x00 an old ggml file"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(bad)
	if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), bad+": not a GGUF file") {
		t.Errorf("Open(bad) = %v", err)
	}
	_, err = Open(filepath.Join(dir, "missing.gguf"))
	if !errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrFormat) {
		t.Errorf("Open(missing) = %v", err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open(dir) = %v", err)
	}
}

func TestTensorTypes(t *testing.T) {
	// Bits per weight of each type as llama.cpp documents them.
	tests := []struct {
		typ  TensorType
		name string
		bpw  float64
	}{
		{F32, "F32", 32}, {F16, "F16", 16}, {BF16, "BF16", 16}, {F64, "F64", 64},
		{I8, "I8", 8}, {I16, "I16", 16}, {I32, "I32", 32}, {I64, "I64", 64},
		{Q4_0, "Q4_0", 4.5}, {Q4_1, "Q4_1", 5}, {Q5_0, "Q5_0", 5.5}, {Q5_1, "Q5_1", 6},
		{Q8_0, "Q8_0", 8.5}, {Q8_1, "Q8_1", 9}, {Q8_K, "Q8_K", 9.125},
		{Q2_K, "Q2_K", 2.625}, {Q3_K, "Q3_K", 3.4375}, {Q4_K, "Q4_K", 4.5},
		{Q5_K, "Q5_K", 5.5}, {Q6_K, "Q6_K", 6.5625},
		{IQ2_XXS, "IQ2_XXS", 2.0625}, {IQ2_XS, "IQ2_XS", 2.3125}, {IQ2_S, "IQ2_S", 2.5625},
		{IQ3_XXS, "IQ3_XXS", 3.0625}, {IQ3_S, "IQ3_S", 3.4375},
		{IQ1_S, "IQ1_S", 1.5625}, {IQ1_M, "IQ1_M", 1.75},
		{IQ4_NL, "IQ4_NL", 4.5}, {IQ4_XS, "IQ4_XS", 4.25},
		{TQ1_0, "TQ1_0", 1.6875}, {TQ2_0, "TQ2_0", 2.0625}, {MXFP4, "MXFP4", 4.25},
	}
	if len(tests) != len(typeTraits) {
		t.Errorf("%d types tested, %d known", len(tests), len(typeTraits))
	}
	for _, tt := range tests {
		bpw := 8 * float64(tt.typ.TypeSize()) / float64(tt.typ.BlockSize())
		if tt.typ.String() != tt.name || bpw != tt.bpw || !tt.typ.Valid() {
			t.Errorf("%d: %s %v bpw, want %s %v", uint32(tt.typ), tt.typ, bpw, tt.name, tt.bpw)
		}
		if p, err := ParseTensorType(strings.ToLower(tt.name)); p != tt.typ || err != nil {
			t.Errorf("ParseTensorType(%q) = %v, %v", strings.ToLower(tt.name), p, err)
		}
	}
	for _, bad := range []TensorType{4, 5, 31, 40} {
		if bad.Valid() || bad.String() != fmt.Sprintf("TensorType(%d)", uint32(bad)) {
			t.Errorf("%v valid", bad)
		}
	}
}

func TestFileTypes(t *testing.T) {
	tests := []struct {
		ft         FileType
		name, desc string
	}{
		{0, "F32", "all F32"},
		{1, "F16", "F16"},
		{7, "Q8_0", "Q8_0"},
		{15, "Q4_K_M", "Q4_K - Medium"},
		{32, "BF16", "BF16"},
		{27, "IQ3_M", "IQ3_S mix - 3.66 bpw"},
		{15 | FileTypeGuessed, "Q4_K_M (guessed)", "Q4_K - Medium (guessed)"},
		{4, "FileType(4)", "unknown, may not work"},
	}
	for _, tt := range tests {
		if tt.ft.String() != tt.name || tt.ft.Description() != tt.desc {
			t.Errorf("%d: %q %q, want %q %q", uint32(tt.ft), tt.ft, tt.ft.Description(), tt.name, tt.desc)
		}
	}
	for _, name := range FileTypeNames() {
		ft, err := ParseFileType(strings.ToLower(name))
		if err != nil || ft.String() != name {
			t.Errorf("ParseFileType(%q) = %v, %v", name, ft, err)
		}
	}
	if ft, _ := ParseFileType("Q4_K"); ft != 15 {
		t.Errorf("Q4_K = %d, want 15 (Q4_K_M)", ft)
	}
	if _, err := ParseFileType("Q4_2"); err == nil {
		t.Error("ParseFileType(Q4_2) succeeded")
	}
}

func TestGuessFileType(t *testing.T) {
	ti := func(name string, typ TensorType) TensorInfo { return TensorInfo{Name: name, Type: typ} }
	tests := []struct {
		tensors []TensorInfo
		want    FileType
	}{
		{nil, 0},
		{[]TensorInfo{ti("a", F16), ti("b", F32), ti("c", F16)}, 1},
		// A tie goes to the type that reached the count first in llama.cpp's
		// order: non-layer tensors, then by layer number (blk.2 before blk.10).
		{[]TensorInfo{ti("blk.10.w", Q8_0), ti("blk.2.w", Q4_K)}, 15},
		{[]TensorInfo{ti("blk.1.w", Q6_K), ti("output.weight", Q8_0)}, 7},
		{[]TensorInfo{ti("a", Q8_1)}, 0}, // unmapped type: ALL_F32
	}
	for i, tt := range tests {
		if got := guessFileType(tt.tensors); got != tt.want|FileTypeGuessed {
			t.Errorf("%d: guessed %v, want %v", i, got, tt.want)
		}
	}
	if layerOf("blk.12.ffn_up.weight") != 12 || layerOf("blk.x") != -1 || layerOf("token_embd.weight") != -1 {
		t.Error("layerOf")
	}
}

// FuzzOpen checks that no input makes the reader panic, return a non-format
// error, or accept tensors beyond the data. Run it with a short
// -fuzzminimizetime (e.g. 2s): minimizing the 14 KB real-metadata seeds'
// descendants takes the default 60 s per new input.
func FuzzOpen(f *testing.F) {
	f.Add(validImage())
	f.Add(new(image).header(3, 0, 1).kvStr("k", "v").Bytes())
	// Real files are large and the fuzzer minimizes interesting inputs
	// byte by byte, so seed with stories260K's real metadata and tensor
	// index, cut before the tensor data: once as is (a truncation error) and
	// once with the tensor count zeroed (a valid file).
	if data, err := os.ReadFile(filepath.Join(sharedModels, "stories260K.gguf")); err == nil {
		if g, err := Read(bytes.NewReader(data), int64(len(data))); err == nil {
			meta := bytes.Clone(data[:g.DataOffset])
			f.Add(bytes.Clone(meta))
			binary.LittleEndian.PutUint64(meta[8:], 0)
			f.Add(meta)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("non-format error %v", err)
			}
			return
		}
		for _, ti := range g.Tensors {
			if g.DataOffset+int64(ti.Offset)+int64(ti.Bytes()) > int64(len(data)) {
				t.Fatalf("tensor %s beyond the data", ti.Name)
			}
			if _, err := g.TensorData(ti.Name); err != nil {
				t.Fatal(err)
			}
		}
		_ = g.Facts()
	})
}

func TestCheckTokenizer(t *testing.T) {
	tokens := func(b *image, n int) *image {
		b.str("tokenizer.ggml.tokens").u32(uint32(TypeArray)).u32(uint32(TypeString)).u64(uint64(n))
		for i := 0; i < n; i++ {
			b.str(fmt.Sprint("t", i))
		}
		return b
	}
	arr := func(b *image, key string, et ValueType, n int) *image {
		b.str(key).u32(uint32(TypeArray)).u32(uint32(et)).u64(uint64(n))
		return b.zeros(n * int(et.size()))
	}
	tests := []struct {
		name string
		img  *image
		want string // "" for no error
	}{
		{"ok", arr(arr(tokens(new(image).header(3, 0, 3), 3), "tokenizer.ggml.scores", TypeFloat32, 3), "tokenizer.ggml.token_type", TypeInt32, 3), ""},
		{"u32 types", arr(tokens(new(image).header(3, 0, 2), 3), "tokenizer.ggml.token_type", TypeUint32, 3), ""},
		{"missing", new(image).header(3, 0, 1).kvStr("general.architecture", "llama"), "tokenizer.ggml.tokens is missing"},
		{"scalar tokens", new(image).header(3, 0, 1).kvStr("tokenizer.ggml.tokens", "a"), "tokenizer.ggml.tokens has type str, want arr[str]"},
		{"short scores", arr(tokens(new(image).header(3, 0, 2), 3), "tokenizer.ggml.scores", TypeFloat32, 2), "tokenizer.ggml.scores has type arr[f32,2], want arr[f32,3] to match the tokens"},
		{"i8 types", arr(tokens(new(image).header(3, 0, 2), 3), "tokenizer.ggml.token_type", TypeInt8, 3), "tokenizer.ggml.token_type has type arr[i8,3]"},
		{"string scores", tokens(new(image).header(3, 0, 2), 3).kvStr("tokenizer.ggml.scores", "x"), "tokenizer.ggml.scores has type str"},
		{"merges", arr(tokens(new(image).header(3, 0, 2), 3), "tokenizer.ggml.merges", TypeUint8, 1), "tokenizer.ggml.merges has type arr[u8,1], want arr[str]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(bytes.NewReader(tt.img.Bytes()), int64(tt.img.Len()))
			if err != nil {
				t.Fatal(err)
			}
			err = f.CheckTokenizer()
			if tt.want == "" && err != nil || tt.want != "" && (!errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), tt.want)) {
				t.Errorf("CheckTokenizer() = %v, want %q", err, tt.want)
			}
		})
	}
	for _, name := range []string{"stories260K.gguf", "vocab/ggml-vocab-gpt-2.gguf", "vocab/ggml-vocab-phi-3.gguf"} {
		if f, err := Open(filepath.Join(sharedModels, name)); err == nil {
			if err := f.CheckTokenizer(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// BenchmarkOpen measures reading a 32000-token vocabulary's metadata.
func BenchmarkOpen(b *testing.B) {
	path := sharedFile(b, "vocab/ggml-vocab-llama-spm.gguf")
	for b.Loop() {
		if _, err := Open(path); err != nil {
			b.Fatal(err)
		}
	}
}

// zeroFile is a huge virtual file: a header, then zeros.
type zeroFile struct{ header []byte }

func (z zeroFile) ReadAt(p []byte, off int64) (int, error) {
	for i := range p {
		p[i] = 0
		if j := off + int64(i); j < int64(len(z.header)) {
			p[i] = z.header[j]
		}
	}
	return len(p), nil
}

// TestHugeCountsDoNotAllocate reads 1 TiB "files" whose counts fit in the
// file: memory use must follow what is read, not what the counts claim.
func TestHugeCountsDoNotAllocate(t *testing.T) {
	tests := []struct {
		name   string
		header []byte
		want   string
	}{
		{"tensors", new(image).header(3, 1<<35, 0).Bytes(), `duplicate tensor name ""`},
		{"kvs", new(image).header(3, 0, 1<<36).Bytes(), "has an empty key"},
	}
	for _, tt := range tests {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Read(zeroFile{tt.header}, 1<<40)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", tt.name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
			t.Errorf("%s: allocated %d bytes", tt.name, n)
		}
	}
}
