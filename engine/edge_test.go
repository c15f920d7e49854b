package engine

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

var tinyPieces = ggufwrite.SPMPieces("▁the", "▁cat", "▁sat", "▁on", "▁mat", "▁a", "▁dog", "▁ran", ".")

func writeTiny(t *testing.T, spec ggufwrite.LlamaSpec) string {
	t.Helper()
	spec.Vocab = ggufwrite.SPMVocab(tinyPieces)
	if spec.NEmbd == 0 {
		spec.NEmbd, spec.NLayer, spec.NHead, spec.NHeadKV, spec.NFF = 32, 2, 4, 2, 64
	}
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := ggufwrite.WriteLlama(path, spec); err != nil {
		t.Fatal(err)
	}
	return path
}

// exactOpts: f32 attention so results compare with the reference decode.
var exactOpts = Options{TypeK: "f32", TypeV: "f32", Threads: 2}

func checkAgainstReference(t *testing.T, m *Model, reqs []LoglikelihoodRequest) []LoglikelihoodResult {
	t.Helper()
	got, err := m.Loglikelihood(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		c, k, err := m.EncodePair(r.Context, r.Continuation)
		if err != nil {
			t.Fatal(err)
		}
		want, wantGreedy := refScore(t, m, c, k)
		if math.Abs(got[i].LogProb-want) > 1e-4 || got[i].IsGreedy != wantGreedy {
			t.Errorf("%q + %q: got (%.6f, %v), want (%.6f, %v)", r.Context, r.Continuation, got[i].LogProb, got[i].IsGreedy, want, wantGreedy)
		}
	}
	return got
}

func TestNoBOSModel(t *testing.T) {
	m := load(t, writeTiny(t, ggufwrite.LlamaSpec{NoBOS: true, Seed: 3}), exactOpts)
	if m.Settings().AddBOS {
		t.Fatal("a model without add_bos_token adds BOS")
	}
	toks, err := m.encode("the cat sat")
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) == 0 || toks[0] == m.Settings().BOS {
		t.Fatalf("encode added BOS: %v", toks)
	}
	res := checkAgainstReference(t, m, []LoglikelihoodRequest{
		{"the cat", " sat on the mat."},
		{"", "the dog ran."},
	})
	c, k, _ := m.EncodePair("", "the dog ran.")
	if len(c) != 1 || c[0] != m.prefixToken() || k[0] == c[0] || res[1].NumTokens != len(k) {
		t.Errorf("empty context: context %v continuation %v", c, k)
	}
}

func TestTinyContextTruncates(t *testing.T) {
	m := load(t, writeTiny(t, ggufwrite.LlamaSpec{NCtx: 16, AddBOS: true, Seed: 4}), exactOpts)
	if m.Settings().MaxLength != 16 {
		t.Fatalf("MaxLength = %d, want the training context 16", m.Settings().MaxLength)
	}
	long := strings.Repeat("the cat sat on the mat. ", 5)
	res := checkAgainstReference(t, m, []LoglikelihoodRequest{
		{long, "a dog ran."},
		{"the cat", " sat."},
	})
	if !res[0].Truncated || res[1].Truncated {
		t.Errorf("truncated = %v, %v; want true, false", res[0].Truncated, res[1].Truncated)
	}
	// A continuation longer than max_length cannot be scored.
	if _, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{{"the", long}}); err == nil {
		t.Error("a continuation longer than max_length was accepted")
	}
	// Generation keeps the context to max_length - max_gen_toks: 10 prompt
	// tokens, then at most 6 generated, of which the last is not decoded.
	before := m.Stats()
	if _, err := m.GenerateUntil(context.Background(), []GenerateRequest{{Context: long, MaxGenToks: 6}}); err != nil {
		t.Fatal(err)
	}
	after := m.Stats()
	if d := after.TokensDecoded - before.TokensDecoded; d > 10+5 || after.Truncated != before.Truncated+1 {
		t.Errorf("generation decoded %d tokens (max 15), truncated %d contexts (want 1)", d, after.Truncated-before.Truncated)
	}
	if _, err := m.GenerateUntil(context.Background(), []GenerateRequest{{Context: long, MaxGenToks: 16}}); err == nil {
		t.Error("max_gen_toks = max_length was accepted")
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeTiny(t, ggufwrite.LlamaSpec{AddBOS: true})
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	corrupt := append([]byte(nil), data...)
	copy(corrupt[8:16], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}) // absurd tensor count

	noTok := ggufwrite.New()
	noTok.SetKV("general.architecture", "llama")
	noTokPath := filepath.Join(dir, "notok.gguf")
	if err := noTok.WriteFile(noTokPath); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, path string
		opts       Options
		format     bool // a gguf.ErrFormat
	}{
		{"missing", filepath.Join(dir, "nope.gguf"), Options{}, false},
		{"not gguf", write("text.gguf", []byte("hello, this is not a model\n")), Options{}, true},
		{"empty", write("empty.gguf", nil), Options{}, true},
		{"truncated header", write("trunc1.gguf", data[:100]), Options{}, true},
		{"truncated tensor data", write("trunc2.gguf", data[:len(data)-100]), Options{}, true},
		{"corrupt counts", write("corrupt.gguf", corrupt), Options{}, true},
		{"no tokenizer", noTokPath, Options{}, false},
		{"bad kv type", good, Options{TypeK: "f64"}, false},
		{"bad flash_attn", good, Options{FlashAttn: "maybe"}, false},
		{"n_seq_max too big", good, Options{NSeqMax: 1000}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Load(tc.path, tc.opts)
			if err == nil {
				m.Close()
				t.Fatal("loaded")
			}
			if !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q does not name the file", err)
			}
			if tc.format && !errors.Is(err, gguf.ErrFormat) {
				t.Errorf("error %q is not a gguf.ErrFormat", err)
			}
		})
	}
	// A vocabulary-only file loads only with VocabOnly.
	vocab := sharedPath(t, "models/vocab/ggml-vocab-gpt-2.gguf")
	if m, err := Load(vocab, Options{}); err == nil {
		m.Close()
		t.Error("a vocabulary-only GGUF loaded for inference")
	}
}

func TestClosedModel(t *testing.T) {
	m, err := Load(writeTiny(t, ggufwrite.LlamaSpec{AddBOS: true}), exactOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Loglikelihood(context.Background(), []LoglikelihoodRequest{{"a", " b"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCancel(t *testing.T) {
	m := load(t, storiesPath(t), Options{NBatch: 32})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Loglikelihood(ctx, mcRequests(16)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// The model stays usable.
	if _, err := m.Loglikelihood(context.Background(), mcRequests(4)); err != nil {
		t.Fatal(err)
	}
}

func TestLogRouting(t *testing.T) {
	var buf strings.Builder
	SetLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer SetLogger(nil)
	m := load(t, writeTiny(t, ggufwrite.LlamaSpec{AddBOS: true}), exactOpts)
	m.Close()
	out := buf.String()
	if !strings.Contains(out, "llama.cpp: ") || !strings.Contains(out, "level=DEBUG") {
		t.Fatalf("llama.cpp's load log did not reach the logger:\n%.500s", out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasSuffix(line, `\n"`) {
			t.Errorf("a log line still ends in a newline: %s", line)
			break
		}
	}
}

// llama.cpp sometimes starts a new message before ending the last one with a
// newline; each must still be its own log record.
func TestLogUnterminatedMessage(t *testing.T) {
	var buf strings.Builder
	SetLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer SetLogger(nil)
	logNative(ggmlLogError, "cols are not divisible by 32")
	logNative(ggmlLogError, "failed to quantize: ")
	logNative(ggmlLogCont, "bad size\n")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"llama.cpp: cols are not divisible by 32"`) ||
		!strings.Contains(lines[1], `"llama.cpp: failed to quantize: bad size"`) {
		t.Fatalf("log records:\n%s", buf.String())
	}
}
