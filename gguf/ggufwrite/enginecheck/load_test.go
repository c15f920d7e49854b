// Package enginecheck loads models made by ggufwrite with the native engine
// (llama.cpp), checking that they are models llama.cpp accepts and runs as
// the writer means them. It holds only tests, kept apart from ggufwrite so
// that ggufwrite's own tests need no cgo; run them with `make test`.
package enginecheck_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

var pieces = ggufwrite.SPMPieces("▁hello", "▁world", "▁the")

func spec(typ gguf.TensorType) ggufwrite.LlamaSpec {
	return ggufwrite.LlamaSpec{
		Vocab: ggufwrite.SPMVocab(pieces), NEmbd: 64, NLayer: 2, NHead: 4, NHeadKV: 2, NFF: 128,
		NCtx: 128, Seed: 5, AddBOS: true, Type: typ,
	}
}

func load(t *testing.T, path string) *engine.Model {
	t.Helper()
	m, err := engine.Load(path, engine.Options{NCtx: 128, CPUOnly: true, Threads: 2, TypeK: "f32", TypeV: "f32"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func id(piece string) int32 {
	for i, p := range ggufwrite.SPMVocab(pieces).Tokens {
		if p == piece {
			return int32(i)
		}
	}
	panic(piece)
}

func TestLoadWrittenLlama(t *testing.T) {
	reqs := []engine.LoglikelihoodRequest{
		{Context: "hello", Continuation: " world"},
		{Context: "hello", Continuation: " the"},
		{Context: "hello", Continuation: " hello"},
		{Context: "the world", Continuation: " the hello world"},
		{Context: "", Continuation: "hello"},
	}
	results := map[gguf.TensorType][]float64{}
	for _, typ := range []gguf.TensorType{gguf.F32, gguf.F16, gguf.BF16} {
		path := filepath.Join(t.TempDir(), typ.String()+".gguf")
		s := spec(typ)
		if err := ggufwrite.WriteLlama(path, s); err != nil {
			t.Fatal(err)
		}
		m := load(t, path)
		info, facts := m.Settings(), m.Facts()
		if info.NVocab != len(s.Vocab.Tokens) || info.NEmbd != 64 || info.NLayer != 2 || info.NCtxTrain != 128 ||
			info.NParams != facts.Params || info.BOS != 1 || info.EOS != 2 || !info.AddBOS || info.VocabType != "spm" {
			t.Errorf("%v: info %+v\nfacts %+v", typ, info, facts)
		}
		if facts.FileType != typ.String() || !strings.Contains(info.Description, typ.String()) {
			t.Errorf("%v: file type %q, llama.cpp says %q", typ, facts.FileType, info.Description)
		}
		toks, err := m.Tokenize("hello world the", true, false)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int32{1, id("▁hello"), id("▁world"), id("▁the")}; !reflect.DeepEqual(toks, want) {
			t.Errorf("%v: tokens %v, want %v", typ, toks, want)
		}
		res, err := m.Loglikelihood(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if math.IsNaN(r.LogProb) || math.IsInf(r.LogProb, 0) || r.LogProb >= 0 {
				t.Errorf("%v: %+v: log-prob %v", typ, reqs[i], r.LogProb)
			}
			results[typ] = append(results[typ], r.LogProb)
		}
	}
	// Varied logits: one-token continuations of the same context differ,
	// and none is near the uniform -log(vocab).
	f32 := results[gguf.F32]
	uniform := -math.Log(float64(len(ggufwrite.SPMVocab(pieces).Tokens)))
	if math.Abs(f32[0]-f32[1]) < 0.05 || math.Abs(f32[1]-f32[2]) < 0.05 || math.Abs(f32[0]-uniform) < 0.05 {
		t.Errorf("log-probs %v look flat (uniform %.3f)", f32[:3], uniform)
	}
	// Rounded weights move log-probs a little, F16 (11-bit significand)
	// less than BF16 (8 bits).
	var d16, dbf float64
	for i := range f32 {
		d16 += math.Abs(results[gguf.F16][i] - f32[i])
		dbf += math.Abs(results[gguf.BF16][i] - f32[i])
	}
	t.Logf("F32 %v\nsum |F16-F32| %.3g, sum |BF16-F32| %.3g", f32, d16, dbf)
	if d16 > 0.02 || dbf > 0.2 || d16 >= dbf {
		t.Errorf("sum |F16-F32| %.3g, sum |BF16-F32| %.3g", d16, dbf)
	}
}

func TestLoadNoBOS(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nobos.gguf")
	s := spec(gguf.F32)
	s.NoBOS = true
	if err := ggufwrite.WriteLlama(path, s); err != nil {
		t.Fatal(err)
	}
	m := load(t, path)
	toks, err := m.Tokenize("hello", true, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Settings().AddBOS || m.Facts().BOS != -1 || !reflect.DeepEqual(toks, []int32{id("▁hello")}) {
		t.Errorf("AddBOS %v, facts BOS %d, tokens %v", m.Settings().AddBOS, m.Facts().BOS, toks)
	}
	t.Logf("llama.cpp's BOS for an SPM vocab without bos_token_id: %d", m.Settings().BOS)
}

func TestLoadCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.gguf")
	if err := ggufwrite.WriteLlama(good, spec(gguf.F32)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.gguf")
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", data[:len(data)/2], "truncated: tensor"},
		{"header only", data[:24], "cannot fit"},
		{"not gguf", []byte("hello"), "not a GGUF file"},
	} {
		if err := os.WriteFile(bad, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := engine.Load(bad, engine.Options{CPUOnly: true})
		if !errors.Is(err, gguf.ErrFormat) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Load = %v", tt.name, err)
		}
	}
}

// TestLoadQuantizable loads the kind of model quantization sweeps start
// from: every row length a multiple of 256 (the K-quant block size).
func TestLoadQuantizable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.gguf")
	s := ggufwrite.LlamaSpec{NEmbd: 256, NLayer: 1, NHead: 4, NFF: 512, NCtx: 64, Type: gguf.F16, Seed: 9, AddBOS: true}
	if err := ggufwrite.WriteLlama(path, s); err != nil {
		t.Fatal(err)
	}
	g, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range g.Tensors {
		if ti.Shape[0]%256 != 0 {
			t.Errorf("%s rows of %d", ti.Name, ti.Shape[0])
		}
	}
	m := load(t, path)
	res, err := m.LoglikelihoodRolling(context.Background(), []string{"The quick brown fox jumps over the lazy dog."})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; math.IsNaN(r.LogProb) || math.IsInf(r.LogProb, 0) || r.LogProb >= 0 || r.NumTokens < 10 {
		t.Errorf("rolling %+v", r)
	}
}
