package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
	"github.com/lmeval/lmeval/harness/cache"
)

func storiesPath(t testing.TB) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "models", "stories260K.gguf")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not available: %v", p, err)
	}
	return p
}

// storiesText is text sampled from stories260K (temperature 1), so its
// perplexity is what the model expects of its own output.
func storiesText(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/stories.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func openStore(t testing.TB, dir string) *cache.Cache {
	t.Helper()
	c, err := cache.Open(filepath.Join(dir, "sweep.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// exact: f32 KV cache and one thread, so numbers do not depend on batch
// layout and compare with the engine's own perplexity.
var exact = engine.Options{TypeK: "f32", TypeV: "f32", Threads: 1}

func result(t *testing.T, r *Report, name string) *Result {
	t.Helper()
	for _, m := range r.Models {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no result named %s", name)
	return nil
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// stories260K (F32) against a copy of itself and against F16 and BF16
// made by the sweep; Q8_0 is refused (n_ff 172) and the sweep goes on.
func TestSweepStories(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.gguf")
	copyFile(t, base, cp)
	var log bytes.Buffer
	cfg := Config{
		Base: base, Models: []string{cp}, Quants: []string{"F16", "BF16", "Q8_0"}, QuantDir: filepath.Join(dir, "q"),
		Docs: []string{storiesText(t)}, ChunkSize: 128, Engine: exact, Store: openStore(t, dir), Log: &log,
	}
	ctx := context.Background()
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Models) != 5 {
		t.Fatalf("%d models, want base, copy, F16, BF16, Q8_0", len(rep.Models))
	}
	q8 := result(t, rep, "Q8_0")
	if q8.Error == "" || q8.PPL != nil || !strings.Contains(log.String(), "refused") {
		t.Errorf("Q8_0 of stories260K: error %q, ppl %v; log:\n%s", q8.Error, q8.PPL, log.String())
	}

	b := rep.Models[0]
	if !b.IsBase || b.KLD != nil || b.PPL == nil || b.Rolling == nil {
		t.Fatalf("base row %+v", b)
	}
	// The base's perplexities come from exact values: they equal the
	// engine's own llama.cpp-layout perplexity and lm-eval rolling
	// log-likelihood, computed independently.
	m, err := engine.Load(base, engine.Options{TypeK: "f32", TypeV: "f32", Threads: 1, NCtx: 128, MaxLength: 128})
	if err != nil {
		t.Fatal(err)
	}
	pp, err := m.Perplexity(ctx, cfg.Docs[0], 128)
	if err != nil {
		t.Fatal(err)
	}
	roll, err := m.LoglikelihoodRolling(ctx, cfg.Docs)
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(b.PPL.PPL-pp.PPL) > 1e-6*pp.PPL || b.PPL.Tokens != pp.Tokens {
		t.Errorf("base chunked PPL %v over %d tokens, engine.Perplexity %v over %d", b.PPL.PPL, b.PPL.Tokens, pp.PPL, pp.Tokens)
	}
	if math.Abs(b.Rolling.LogLikelihood-roll[0].LogProb) > 1e-5*math.Abs(roll[0].LogProb) || b.Rolling.Tokens != roll[0].NumTokens {
		t.Errorf("base rolling log-likelihood %v over %d tokens, engine %v over %d", b.Rolling.LogLikelihood, b.Rolling.Tokens, roll[0].LogProb, roll[0].NumTokens)
	}

	same := result(t, rep, "copy")
	if same.KLD.KLD > 1e-12 || same.KLD.KLDMax > 1e-12 || same.KLD.SameTop != 1 || same.KLD.PPLRatio != 1 {
		t.Errorf("KLD(base, base) %g (max %g), same top %v, ratio %v", same.KLD.KLD, same.KLD.KLDMax, same.KLD.SameTop, same.KLD.PPLRatio)
	}
	f16, bf16 := result(t, rep, "F16"), result(t, rep, "BF16")
	if !(f16.KLD.KLD < bf16.KLD.KLD) || !(f16.KLD.SameTop >= bf16.KLD.SameTop) {
		t.Errorf("F16 should be closer to the base than BF16: KLD %g vs %g, same top %v vs %v", f16.KLD.KLD, bf16.KLD.KLD, f16.KLD.SameTop, bf16.KLD.SameTop)
	}
	// No bias from stored values: an F16 copy of the F32 model has a
	// perplexity ratio of 1 within its uncertainty.
	if d := math.Abs(f16.KLD.PPLRatio - 1); d > 2*f16.KLD.PPLRatioUnc || f16.KLD.PPLRatioUnc == 0 {
		t.Errorf("F16/F32 perplexity ratio %v ± %v: not 1 within its uncertainty", f16.KLD.PPLRatio, f16.KLD.PPLRatioUnc)
	}
	if v := same.Rolling.VsBase; v == nil || v.Ratio != 1 || b.Rolling.VsBase != nil {
		t.Errorf("rolling ratio of the copy %+v, of the base %+v", v, b.Rolling.VsBase)
	}
	if v := f16.Rolling.VsBase; math.Abs(v.Ratio-1) > 2*v.RatioUnc {
		t.Errorf("F16/F32 rolling perplexity ratio %v ± %v", v.Ratio, v.RatioUnc)
	}
	if f16.KLD.KLDUpper < f16.KLD.KLD {
		t.Errorf("KLD interval [%g, %g]", f16.KLD.KLD, f16.KLD.KLDUpper)
	}
	t.Logf("base PPL %.4f; F16 ratio %.6f ± %.6f, KLD %.3g [%.3g]; BF16 ratio %.6f ± %.6f, KLD %.3g",
		b.PPL.PPL, f16.KLD.PPLRatio, f16.KLD.PPLRatioUnc, f16.KLD.KLD, f16.KLD.KLDUpper, bf16.KLD.PPLRatio, bf16.KLD.PPLRatioUnc, bf16.KLD.KLD)

	// Outputs.
	var table bytes.Buffer
	if err := WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stories260K", "F16", "BF16", "Q8_0", "refused", "mean KLD", "100.00"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	out := filepath.Join(dir, "out")
	if _, err := WriteFiles(out, rep); err != nil {
		t.Fatal(err)
	}
	var back Report
	data, err := os.ReadFile(filepath.Join(out, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Models) != 5 || back.Models[2].KLD == nil || back.Models[2].KLD.KLD != rep.Models[2].KLD.KLD {
		t.Errorf("JSON round trip: %+v", back.Models)
	}
	f, err := os.Open(filepath.Join(out, CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 6 || len(rows[0]) != len(CSVHeader) || rows[3][0] != "F16" {
		t.Errorf("CSV: %v rows, err %v", len(rows), err)
	}
	svg, err := os.ReadFile(filepath.Join(out, ChartFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", ">F16</text>", ">BF16</text>", "bits per weight", "mean KLD"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("chart lacks %q", want)
		}
	}

	// A resumed sweep recomputes nothing (no model is even loaded) and
	// gives the same numbers; the quantized files are reused.
	log.Reset()
	again, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Computed != 0 || again.Loaded != 0 {
		t.Errorf("resumed sweep computed %d passes, loaded %d models", again.Computed, again.Loaded)
	}
	if !strings.Contains(log.String(), "F16: reusing") {
		t.Errorf("quantized file not reused; log:\n%s", log.String())
	}
	var j1, j2 bytes.Buffer
	WriteJSON(&j1, rep)
	WriteJSON(&j2, again)
	if strings.Replace(j1.String(), `"computed_passes": 8`, "", 1) != strings.Replace(strings.Replace(j2.String(), `"computed_passes": 0`, "", 1), `"models_loaded": 0`, `"models_loaded": 4`, 1) {
		t.Errorf("resumed results differ:\n%s\n%s", j1.String(), j2.String())
	}
}

// A random-weight model whose rows are multiples of 256 takes block and
// K-quants; a quantization that needs an importance matrix is refused
// and the sweep continues.
func TestSweepBlockQuants(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "rand-f32.gguf")
	if err := ggufwrite.WriteLlama(base, ggufwrite.LlamaSpec{NEmbd: 256, NFF: 512, NLayer: 2, NHead: 4, Seed: 3, AddBOS: true}); err != nil {
		t.Fatal(err)
	}
	text := storiesText(t)[:1500]
	rep, err := Run(context.Background(), Config{
		Base: base, Quants: []string{"Q8_0", "IQ2_XXS", "Q4_0", "Q4_K_M"}, QuantDir: dir,
		Docs: []string{text}, ChunkSize: 64, TopK: 16, Engine: exact, Store: openStore(t, dir), Log: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := result(t, rep, "IQ2_XXS"); r.Error == "" {
		t.Errorf("IQ2_XXS without an importance matrix should be refused")
	}
	q8, q40, q4k := result(t, rep, "Q8_0"), result(t, rep, "Q4_0"), result(t, rep, "Q4_K_M")
	for _, r := range []*Result{q8, q40, q4k} {
		if r.Error != "" || r.KLD == nil {
			t.Fatalf("%s: %s", r.Name, r.Error)
		}
	}
	if !(q8.KLD.KLD < q40.KLD.KLD) {
		t.Errorf("Q8_0 should be closer to the base than Q4_0: KLD %g vs %g", q8.KLD.KLD, q40.KLD.KLD)
	}
	if !(q8.BitsPerWeight > q4k.BitsPerWeight && q4k.BitsPerWeight > 4) {
		t.Errorf("bits per weight: Q8_0 %v, Q4_K_M %v", q8.BitsPerWeight, q4k.BitsPerWeight)
	}
	t.Logf("KLD: Q8_0 %.3g, Q4_K_M %.3g, Q4_0 %.3g", q8.KLD.KLD, q4k.KLD.KLD, q40.KLD.KLD)
}

func TestSweepRejectsOtherVocabulary(t *testing.T) {
	base := storiesPath(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "other.gguf")
	if err := ggufwrite.WriteLlama(other, ggufwrite.LlamaSpec{}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Base: base, Models: []string{other}, Docs: []string{storiesText(t)},
		ChunkSize: 64, Store: openStore(t, dir)})
	if err == nil || !strings.Contains(err.Error(), "same vocabulary") {
		t.Errorf("err %v, want a vocabulary mismatch", err)
	}
}

// Two bases of the same file name (model-f16.gguf of two fine-tunes)
// share the quantization directory: the second must get quantizations of
// itself, not the first's files reused.
func TestQuantsOfSameNamedBases(t *testing.T) {
	dir := t.TempDir()
	qdir := filepath.Join(dir, "q")
	text := storiesText(t)[:600]
	var f16 []*Result
	for _, seed := range []int64{1, 2} {
		base := filepath.Join(dir, fmt.Sprint(seed), "model-f32.gguf")
		if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := ggufwrite.WriteLlama(base, ggufwrite.LlamaSpec{Seed: seed}); err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), Config{Base: base, Quants: []string{"F16"}, QuantDir: qdir,
			Docs: []string{text}, ChunkSize: 32, TopK: 8, Engine: exact, Store: openStore(t, dir), Log: io.Discard})
		if err != nil {
			t.Fatalf("base seed %d: %v", seed, err)
		}
		f16 = append(f16, result(t, rep, "F16"))
	}
	if f16[0].SHA256 == f16[1].SHA256 {
		t.Errorf("the second base's F16 is the first base's file %s", f16[1].Path)
	}
	if k := f16[1].KLD; k == nil || k.SameTop < 0.9 {
		t.Errorf("F16 of the second base against it: %+v", k)
	}
}
