package ggufwrite_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

func read(t *testing.T, f *ggufwrite.File) (*gguf.File, []byte) {
	t.Helper()
	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo returned %d, wrote %d", n, buf.Len())
	}
	g, err := gguf.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return g, buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	values := []any{
		uint8(7), int8(-7), uint16(65535), int16(-300), uint32(1 << 31), int32(-1),
		uint64(1 << 63), int64(-1 << 62), float32(0.5), float64(-1e300), true, "héllo\x00world",
		[]uint8{1, 2}, []int8{-1}, []uint16{9}, []int16{-9, 9}, []uint32{}, []int32{1, -2, 3},
		[]uint64{1 << 40}, []int64{-5}, []float32{1.5, float32(math.Inf(-1))}, []float64{math.Pi},
		[]bool{true, false, true}, []string{"", "a", "▁b"},
	}
	w := ggufwrite.New()
	var want []gguf.KV
	for i, v := range values {
		key := fmt.Sprintf("k%02d.%T", i, v)
		w.SetKV(key, v)
		want = append(want, gguf.KV{Key: key, Value: gguf.Value{Data: anySlice(v)}})
	}
	w.SetKV("k00.uint8", uint8(8)) // replaces in place
	want[0].Value.Data = uint8(8)
	w.SetKV("general.alignment", uint32(64))
	want = append(want, gguf.KV{Key: "general.alignment", Value: gguf.Value{Data: uint32(64)}})

	f32, _ := ggufwrite.EncodeFloats(gguf.F32, []float32{1, 2, 3})
	q8 := make([]byte, 2*34) // two Q8_0 blocks
	for i := range q8 {
		q8[i] = byte(i)
	}
	bf16, _ := ggufwrite.EncodeFloats(gguf.BF16, make([]float32, 6))
	tensors := []struct {
		name  string
		typ   gguf.TensorType
		shape []uint64
		data  []byte
	}{
		{"a", gguf.F32, []uint64{3}, f32},
		{"blk.0.q8", gguf.Q8_0, []uint64{32, 2}, q8},
		{"c", gguf.BF16, []uint64{1, 2, 3}, bf16},
	}
	for _, tt := range tensors {
		w.AddTensor(tt.name, tt.typ, tt.shape, tt.data)
	}

	g, raw := read(t, w)
	if len(g.KV) != len(want) {
		t.Fatalf("%d keys, want %d", len(g.KV), len(want))
	}
	for i, kv := range g.KV {
		if kv.Key != want[i].Key || !reflect.DeepEqual(kv.Value.Data, want[i].Value.Data) {
			t.Errorf("kv %d: %q = %#v, want %q = %#v", i, kv.Key, kv.Value.Data, want[i].Key, want[i].Value.Data)
		}
	}
	if !reflect.DeepEqual(g.KV, w.KV()) {
		t.Error("read KV differ from written KV (types)")
	}
	if g.Alignment != 64 || g.DataOffset%64 != 0 || g.Version != 3 {
		t.Errorf("alignment %d data offset %d version %d", g.Alignment, g.DataOffset, g.Version)
	}
	// Padded sizes: 12 -> 64, 68 -> 128, 12 (last, unpadded) bytes.
	if wantSize := g.DataOffset + 64 + 128 + 64; int64(len(raw)) != wantSize {
		t.Errorf("file size %d, want %d", len(raw), wantSize)
	}
	for i, tt := range tensors {
		ti := g.Tensors[i]
		if ti.Name != tt.name || ti.Type != tt.typ || !reflect.DeepEqual(ti.Shape, tt.shape) {
			t.Errorf("tensor %d = %+v", i, ti)
		}
		data, err := g.TensorData(tt.name)
		if err != nil || !bytes.Equal(data, tt.data) {
			t.Errorf("tensor %s data % x, %v", tt.name, data, err)
		}
	}
}

// anySlice returns v, or for a slice its elements as a []any, as gguf
// returns arrays.
func anySlice(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return v
	}
	a := make([]any, rv.Len())
	for i := range a {
		a[i] = rv.Index(i).Interface()
	}
	return a
}

func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name string
		make func(*ggufwrite.File)
		want string
	}{
		{"int", func(f *ggufwrite.File) { f.SetKV("n", 3) }, `SetKV("n"): Go int has no GGUF width`},
		{"map", func(f *ggufwrite.File) { f.SetKV("m", map[string]int{}) }, "unsupported value type map[string]int"},
		{"empty key", func(f *ggufwrite.File) { f.SetKV("", "x") }, "empty key"},
		{"bad Value", func(f *ggufwrite.File) { f.SetKV("v", gguf.Value{Type: gguf.TypeUint32, Data: "x"}) }, "gguf.Value of type u32 holds string"},
		{"bad array Value", func(f *ggufwrite.File) {
			f.SetKV("v", gguf.Value{Type: gguf.TypeArray, Elem: gguf.TypeInt32, Data: []any{int32(1), "x"}})
		}, "gguf.Value of type arr[i32,2]: element 1 is string"},
		{"[]any", func(f *ggufwrite.File) { f.SetKV("v", []any{1}) }, "[]any has no element type"},
		{"data size", func(f *ggufwrite.File) { f.AddTensor("t", gguf.F16, []uint64{4}, make([]byte, 4)) }, `AddTensor("t"): 4 bytes of data, want 8`},
		{"block", func(f *ggufwrite.File) { f.AddTensor("t", gguf.Q4_K, []uint64{64}, nil) }, "not a multiple of the Q4_K block size 256"},
		{"dup", func(f *ggufwrite.File) {
			f.AddTensor("t", gguf.I8, []uint64{1}, []byte{1})
			f.AddTensor("t", gguf.I8, []uint64{1}, []byte{1})
		}, "duplicate tensor name"},
		{"zero dim", func(f *ggufwrite.File) { f.AddTensor("t", gguf.F32, []uint64{0}, nil) }, "zero dimension"},
		{"llama heads", func(f *ggufwrite.File) { *f = *ggufwrite.Llama(ggufwrite.LlamaSpec{NEmbd: 60, NHead: 8}) }, "n_embd 60 must be n_head 8 times an even head size"},
		{"llama type", func(f *ggufwrite.File) { *f = *ggufwrite.Llama(ggufwrite.LlamaSpec{Type: gguf.Q4_0}) }, "weight type Q4_0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ggufwrite.New()
			tt.make(f)
			_, err := f.WriteTo(io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("WriteTo: %v, want error containing %q", err, tt.want)
			}
			path := filepath.Join(t.TempDir(), "x.gguf")
			if err := f.WriteFile(path); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("WriteFile: %v", err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("WriteFile created %s despite the error", path)
			}
		})
	}
}

func TestSPMVocab(t *testing.T) {
	v := ggufwrite.SPMVocab([]string{"▁a", "", "b", "▁a", "<s>"})
	if len(v.Tokens) != 3+256+2 || v.BOS != 1 || v.EOS != 2 || v.UNK != 0 {
		t.Fatalf("%d tokens, BOS %d EOS %d UNK %d", len(v.Tokens), v.BOS, v.EOS, v.UNK)
	}
	checks := []struct {
		id    int
		text  string
		typ   int32
		score float32
	}{
		{0, "<unk>", 2, 0}, {1, "<s>", 3, 0}, {2, "</s>", 3, 0},
		{3, "<0x00>", 6, 0}, {3 + 0x0A, "<0x0A>", 6, 0}, {258, "<0xFF>", 6, 0},
		{259, "▁a", 1, -1}, {260, "b", 1, -2},
	}
	for _, c := range checks {
		if v.Tokens[c.id] != c.text || v.Types[c.id] != c.typ || v.Scores[c.id] != c.score {
			t.Errorf("token %d = %q type %d score %v, want %q %d %v", c.id, v.Tokens[c.id], v.Types[c.id], v.Scores[c.id], c.text, c.typ, c.score)
		}
	}
	got := ggufwrite.SPMPieces(" the", "▁then", "é!")
	want := []string{"▁", "▁t", "▁th", "▁the", "▁then", "é", "é!"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SPMPieces = %q, want %q", got, want)
	}
}

func TestLlamaMatchesStories260KLayout(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	real, err := gguf.Open(path)
	if err != nil {
		t.Skipf("stories260K not available (../shared absent?): %v", err)
	}
	// The shapes of stories260K.
	spec := ggufwrite.LlamaSpec{NEmbd: 64, NLayer: 5, NHead: 8, NHeadKV: 4, NFF: 172, NCtx: 2048, Seed: 1, AddBOS: true}
	// Pad the vocabulary to stories260K's 512 tokens.
	pieces := ggufwrite.SPMPieces("▁once", "▁upon")
	for i := 0; len(pieces) < 512-259; i++ {
		pieces = append(pieces, fmt.Sprintf("p%d", i))
	}
	spec.Vocab = ggufwrite.SPMVocab(pieces)
	g, _ := read(t, ggufwrite.Llama(spec))

	// Same tensors with the same shapes and types.
	shapes := func(f *gguf.File) map[string]string {
		m := map[string]string{}
		for _, ti := range f.Tensors {
			m[ti.Name] = fmt.Sprint(ti.Type, ti.Shape)
		}
		return m
	}
	if a, b := shapes(real), shapes(g); !reflect.DeepEqual(a, b) {
		t.Errorf("tensors differ:\nstories260K %v\nwritten     %v", a, b)
	}
	// Every key of the real model, bar its unused separator/padding ids,
	// is written with the same type; scalar hyperparameters agree.
	for _, kv := range real.KV {
		if kv.Key == "tokenizer.ggml.seperator_token_id" || kv.Key == "tokenizer.ggml.padding_token_id" {
			continue
		}
		v, ok := g.Lookup(kv.Key)
		if !ok || v.TypeName() != kv.Value.TypeName() {
			t.Errorf("%s: written %s, stories260K %s", kv.Key, v.TypeName(), kv.Value.TypeName())
			continue
		}
		if strings.HasPrefix(kv.Key, "llama.") || strings.HasSuffix(kv.Key, "_id") || kv.Key == "tokenizer.ggml.model" {
			if !reflect.DeepEqual(v.Data, kv.Value.Data) {
				t.Errorf("%s = %v, stories260K %v", kv.Key, v.Data, kv.Value.Data)
			}
		}
	}
	rf, gf := real.Facts(), g.Facts()
	if rf.Params != gf.Params || gf.FileType != "F32" || gf.FileTypeGuessed {
		t.Errorf("params %d vs %d, file type %q guessed %v", rf.Params, gf.Params, gf.FileType, gf.FileTypeGuessed)
	}
}

func TestLlama(t *testing.T) {
	pieces := ggufwrite.SPMPieces("▁hello", "▁world")
	tests := []struct {
		name string
		spec ggufwrite.LlamaSpec
		bpw  float64 // without the F32 norms
	}{
		{"F32", ggufwrite.LlamaSpec{Vocab: ggufwrite.SPMVocab(pieces), NEmbd: 32, NLayer: 2, NHead: 4, NHeadKV: 2, NFF: 48, NCtx: 64, Seed: 7, AddBOS: true}, 32},
		{"F16 defaults", ggufwrite.LlamaSpec{Type: gguf.F16, NoBOS: true, AddBOS: true, ChatTemplate: "{{ messages }}"}, 16},
		{"BF16 256", ggufwrite.LlamaSpec{Type: gguf.BF16, NEmbd: 256, NLayer: 1, NHead: 2, NFF: 512, Seed: 3}, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.gguf")
			if err := ggufwrite.WriteLlama(path, tt.spec); err != nil {
				t.Fatal(err)
			}
			g, err := gguf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			s := tt.spec
			def := func(v, d int) int {
				if v == 0 {
					return d
				}
				return v
			}
			nEmbd, nLayer, nHead := def(s.NEmbd, 64), def(s.NLayer, 2), def(s.NHead, 4)
			nHeadKV, nCtx := def(s.NHeadKV, nHead), def(s.NCtx, 256)
			nFF := def(s.NFF, 2*nEmbd)
			nVocab := def(len(s.Vocab.Tokens), 259)
			kvDim := nEmbd / nHead * nHeadKV
			norms := nEmbd * (1 + 2*nLayer)
			matrices := 2*nEmbd*nVocab + nLayer*(2*nEmbd*nEmbd+2*nEmbd*kvDim+3*nEmbd*nFF)
			bpw := (tt.bpw*float64(matrices) + 32*float64(norms)) / float64(matrices+norms)

			fc := g.Facts()
			typeName := strings.Fields(tt.name)[0]
			tru, fls := true, false
			addBOS := &tru
			if !s.AddBOS || s.NoBOS {
				addBOS = &fls
			}
			bos := 1
			if s.NoBOS {
				bos = -1
			}
			want := gguf.Facts{
				Architecture: "llama", Name: "ggufwrite-llama", FileType: typeName,
				Params: uint64(matrices + norms), FileSize: g.Size, BitsPerWeight: bpw,
				ContextLength: uint64(nCtx), EmbeddingLength: uint64(nEmbd), BlockCount: uint64(nLayer),
				HeadCount: uint64(nHead), HeadCountKV: uint64(nHeadKV), FeedForwardLength: uint64(nFF),
				VocabSize: nVocab, TokenizerModel: "llama", BOS: bos, EOS: 2, UNK: 0,
				AddBOS: addBOS, AddEOS: &fls, ChatTemplate: s.ChatTemplate,
			}
			for range nLayer {
				want.HeadCounts = append(want.HeadCounts, uint64(nHead))
				want.HeadCountsKV = append(want.HeadCountsKV, uint64(nHeadKV))
			}
			if math.Abs(fc.BitsPerWeight-want.BitsPerWeight) < 1e-9 {
				fc.BitsPerWeight = want.BitsPerWeight
			}
			if !reflect.DeepEqual(fc, want) {
				t.Errorf("facts\n got %+v\nwant %+v", fc, want)
			}
			if n, _ := g.Uint("llama.rope.dimension_count"); n != uint64(nEmbd/nHead) {
				t.Errorf("rope dims %d", n)
			}
			if eps, _ := g.Float("llama.attention.layer_norm_rms_epsilon"); float32(eps) != 1e-5 {
				t.Errorf("rms eps %v", eps)
			}
			for _, ti := range g.Tensors {
				wantType := tt.spec.Type
				if len(ti.Shape) == 1 {
					wantType = gguf.F32
				}
				if ti.Type != wantType {
					t.Errorf("%s is %v, want %v", ti.Name, ti.Type, wantType)
				}
			}
			checkWeights(t, g, "blk.0.ffn_down.weight", nFF)
			checkWeights(t, g, "output.weight", nEmbd)
			norm := floats(t, g, "blk.0.attn_norm.weight")
			for i, x := range norm {
				if x != 1 {
					t.Fatalf("attn_norm[%d] = %v", i, x)
				}
			}
		})
	}
}

// floats decodes a tensor's F32, F16 or BF16 data.
func floats(t *testing.T, g *gguf.File, name string) []float64 {
	t.Helper()
	ti, _ := g.Tensor(name)
	data, err := g.TensorData(name)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	out := make([]float64, ti.NumElements())
	for i := range out {
		switch ti.Type {
		case gguf.F32:
			out[i] = float64(math.Float32frombits(le.Uint32(data[4*i:])))
		case gguf.BF16:
			out[i] = float64(math.Float32frombits(uint32(le.Uint16(data[2*i:])) << 16))
		case gguf.F16:
			h := le.Uint16(data[2*i:])
			e, m := int(h>>10&0x1f), float64(h&0x3ff)
			v := (1 + m/1024) * math.Pow(2, float64(e-15))
			if e == 0 {
				v = m * math.Pow(2, -24)
			}
			if h&0x8000 != 0 {
				v = -v
			}
			out[i] = v
		default:
			t.Fatalf("%s has type %v", name, ti.Type)
		}
	}
	return out
}

// checkWeights checks a weight matrix's sample mean, standard deviation
// (1/sqrt(fan-in)) and bound (2*sqrt(3) standard deviations).
func checkWeights(t *testing.T, g *gguf.File, name string, fanIn int) {
	t.Helper()
	w := floats(t, g, name)
	var sum, sq, maxAbs float64
	for _, x := range w {
		sum += x
		sq += x * x
		maxAbs = max(maxAbs, math.Abs(x))
	}
	n := float64(len(w))
	mean := sum / n
	std := math.Sqrt(sq/n - mean*mean)
	want := 1 / math.Sqrt(float64(fanIn))
	if math.Abs(std/want-1) > 0.05 || math.Abs(mean) > 4*want/math.Sqrt(n) || maxAbs > 2*math.Sqrt(3)*want*1.01 {
		t.Errorf("%s: mean %.4g std %.4g (want %.4g) max |w| %.4g over %d values", name, mean, std, want, maxAbs, len(w))
	}
}

func TestLlamaDeterministic(t *testing.T) {
	spec := ggufwrite.LlamaSpec{NEmbd: 32, NLayer: 1, Seed: 42}
	_, a := read(t, ggufwrite.Llama(spec))
	_, b := read(t, ggufwrite.Llama(spec))
	if !bytes.Equal(a, b) {
		t.Error("same spec, different bytes")
	}
	// The bytes are pinned: a change of weights, layout or metadata order
	// shows here (and would invalidate caches keyed on model files).
	if sum := fmt.Sprintf("%x", sha256.Sum256(a)); sum != "b530fea7b75205ffd56a86085af5e4044fd268ed03cd548bdbce28c4e1347805" || len(a) != 114976 {
		t.Errorf("Llama(%+v): sha256 %s, %d bytes", spec, sum, len(a))
	}
	spec.Seed = 43
	_, c := read(t, ggufwrite.Llama(spec))
	if len(c) != len(a) || bytes.Equal(a, c) {
		t.Error("another seed gave the same bytes")
	}

	// F16 and BF16 weights are the F32 weights rounded: relative error
	// within 2^-11 (F16) and 2^-8 (BF16), and not all exact.
	spec.Seed = 42
	g32, _ := read(t, ggufwrite.Llama(spec))
	w32 := floats(t, g32, "blk.0.attn_q.weight")
	for _, c := range []struct {
		typ gguf.TensorType
		rel float64
	}{{gguf.F16, 1.0 / 2048}, {gguf.BF16, 1.0 / 256}} {
		spec.Type = c.typ
		g, _ := read(t, ggufwrite.Llama(spec))
		w := floats(t, g, "blk.0.attn_q.weight")
		inexact := 0
		for i := range w {
			// Subnormal F16 values have an absolute error of at most 2^-25.
			if d := math.Abs(w[i] - w32[i]); d > c.rel*math.Abs(w32[i])+math.Pow(2, -25) {
				t.Fatalf("%v: w[%d] = %v, F32 %v", c.typ, i, w[i], w32[i])
			} else if d != 0 {
				inexact++
			}
		}
		if inexact < len(w)/2 {
			t.Errorf("%v: only %d of %d values rounded", c.typ, inexact, len(w))
		}
	}
}

// TestCorruptLlama shows how tests make broken files from a good one and
// what gguf.Open says about them.
func TestCorruptLlama(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.gguf")
	if err := ggufwrite.WriteLlama(good, ggufwrite.LlamaSpec{NEmbd: 32, NLayer: 2}); err != nil {
		t.Fatal(err)
	}
	g, err := gguf.Open(good)
	if err != nil {
		t.Fatal(err)
	}
	last := g.Tensors[len(g.Tensors)-1]
	if last.Name != "blk.1.ffn_norm.weight" {
		t.Fatalf("last tensor %s", last.Name)
	}

	truncated := filepath.Join(dir, "truncated.gguf")
	data, _ := os.ReadFile(good)
	os.WriteFile(truncated, data[:len(data)-10], 0o644)
	v1 := ggufwrite.Llama(ggufwrite.LlamaSpec{NEmbd: 32, NLayer: 2})
	v1.Version = 1
	old := filepath.Join(dir, "v1.gguf")
	if err := v1.WriteFile(old); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{truncated, fmt.Sprintf("%s: truncated: tensor blk.1.ffn_norm.weight ends at byte %d beyond file size %d", truncated, len(data), len(data)-10)},
		{old, old + ": unsupported GGUF version 1"},
	}
	for _, tt := range tests {
		_, err := gguf.Open(tt.path)
		if !errors.Is(err, gguf.ErrFormat) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Open: %v\nwant %s", err, tt.want)
		}
	}
}
