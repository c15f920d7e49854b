package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

// logSoftmax is the slow reference: log_softmax of a full row in double.
func logSoftmax(row []float32) []float64 {
	mx := math.Inf(-1)
	for _, v := range row {
		mx = math.Max(mx, float64(v))
	}
	s := 0.0
	for _, v := range row {
		s += math.Exp(float64(v) - mx)
	}
	lse := mx + math.Log(s)
	out := make([]float64, len(row))
	for i, v := range row {
		out[i] = float64(v) - lse
	}
	return out
}

// fullRows returns, for every scored position of reqs, the full log-softmax
// row from a one-sequence decode with all logits fetched.
func fullRows(t *testing.T, m *Model, reqs []DistRequest) [][]float64 {
	t.Helper()
	var out [][]float64
	for _, r := range reqs {
		rows, err := m.allLogits(r.Input)
		if err != nil {
			t.Fatal(err)
		}
		for p := len(r.Input) - len(r.Targets); p < len(r.Input); p++ {
			out = append(out, logSoftmax(rows[p]))
		}
	}
	return out
}

const distText = "Once upon a time, there was a little girl named Lily. She loved to play outside in the park. " +
	"One day, she saw a big red ball. She wanted to play with it, but it was too high. " +
	"Lily asked her mom to help her. Her mom said yes and they played together all day long."

func distOpts() Options {
	return Options{NCtx: 256, TypeK: "f32", TypeV: "f32", NBatch: 64, NUBatch: 64}
}

func storiesRequests(t *testing.T, m *Model, chunk int) []DistRequest {
	t.Helper()
	toks, err := m.Tokenize(distText+" "+distText, true, false)
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := PerplexityRequests(toks, chunk, m.Settings().BOS)
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

func TestTopKMatchesFullRows(t *testing.T) {
	// Two threads: the rows of one decode are summarised in parallel.
	for _, threads := range []int{1, 2} {
		opts := distOpts()
		opts.Threads = threads
		m := load(t, storiesPath(t), opts)
		checkTopK(t, m)
	}
}

func checkTopK(t *testing.T, m *Model) {
	reqs := storiesRequests(t, m, 40)
	if len(reqs) < 2 {
		t.Fatalf("want several chunks, got %d", len(reqs))
	}
	const k = 8
	d, err := m.TopK(context.Background(), reqs, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := fullRows(t, m, reqs)
	if d.Len() != len(ref) || d.Len() != Positions(reqs) {
		t.Fatalf("%d positions, reference %d", d.Len(), len(ref))
	}
	var targets []int32
	for _, r := range reqs {
		targets = append(targets, r.Targets...)
	}
	for i, row := range ref {
		if got, want := d.LogProb[i], row[targets[i]]; math.Abs(got-want) > 1e-4 {
			t.Errorf("position %d: log p %v, reference %v", i, got, want)
		}
		order := make([]int, len(row))
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if row[a] > row[b] {
				return -1
			}
			if row[a] < row[b] {
				return 1
			}
			return 0
		})
		if int(d.Argmax[i]) != order[0] && row[d.Argmax[i]] < row[order[0]]-1e-5 {
			t.Errorf("position %d: argmax %d, reference %d", i, d.Argmax[i], order[0])
		}
		tail := 0.0
		for j := k; j < len(order); j++ {
			tail += math.Exp(row[order[j]])
		}
		for j := 0; j < k; j++ {
			if got, want := float64(d.TopLogP[i*k+j]), row[order[j]]; math.Abs(got-want) > 1e-4 {
				t.Errorf("position %d top %d: log p %v, reference %v", i, j, got, want)
			}
		}
		if got := math.Exp(d.TailLogP[i]); math.Abs(got-tail) > 1e-4*math.Max(tail, 1e-3) {
			t.Errorf("position %d: tail mass %v, reference %v", i, got, tail)
		}
	}
}

// exactKL is KL(p || q) over full rows.
func exactKL(p, q []float64) float64 {
	s := 0.0
	for i := range p {
		if !math.IsInf(p[i], -1) {
			s += math.Exp(p[i]) * (p[i] - q[i])
		}
	}
	return s
}

func quantized(t *testing.T, in, ft string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), ft+".gguf")
	if err := Quantize(in, out, QuantizeOptions{FileType: ft, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	return out
}

// layoutRows returns the full log-softmax row of every scored position of
// reqs from the decodes TopK and Compare make: scanRows lays the requests
// out in the same batches, so these are the float32 logits the shim
// summarised, bit for bit. (A one-sequence decode, as fullRows makes, puts
// the tokens in other batches and cells, and the logits then differ by
// float32 rounding; see TestCompareBoundsExactKLD.)
func layoutRows(t *testing.T, m *Model, reqs []DistRequest) [][]float64 {
	t.Helper()
	out := make([][]float64, Positions(reqs))
	err := m.scanRows(context.Background(), reqs, nil, func(rows, _ []int32, at int) error {
		for j, r := range rows {
			row := make([]float32, m.info.NVocab)
			if err := cLogits(m.c, r, row); err != nil {
				return err
			}
			out[at+j] = logSoftmax(row)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The stored top-k summary bounds KL(base || model): the exact KL from full
// rows lies within [KLDLow, KLDHigh] at every position, for any k; with k
// the whole vocabulary the bounds close on it.
//
// The exact KL is computed from the very rows the summaries were made of
// (layoutRows), so the only difference left is double-precision
// arithmetic: sums of at most n_vocab = 512 terms of magnitude below 50
// (|log p| of the rows here) differ by at most 512 * 2^-53 * 50 ≈ 3e-12.
// The KLDs between these models are ~1e-6, which is the size of the
// float32 noise between two different decodes of the same tokens (an
// AVX2 host without AVX-512 shows it), so rows from another decode cannot
// serve as the reference.
func TestCompareBoundsExactKLD(t *testing.T) {
	const tol = 1e-11
	for _, threads := range []int{1, 2} {
		for _, nBatch := range []int{64, 16} {
			opts := distOpts()
			opts.Threads, opts.NBatch, opts.NUBatch = threads, nBatch, nBatch
			base := load(t, storiesPath(t), opts)
			reqs := storiesRequests(t, base, 40)
			baseRows := layoutRows(t, base, reqs)
			for _, ft := range []string{"BF16", "F16"} {
				model := load(t, quantized(t, storiesPath(t), ft), opts)
				modelRows := layoutRows(t, model, reqs)
				for _, k := range []int{1, 4, 32, 512} {
					d, err := base.TopK(context.Background(), reqs, k, nil)
					if err != nil {
						t.Fatal(err)
					}
					dv, err := model.Compare(context.Background(), reqs, d, nil)
					if err != nil {
						t.Fatal(err)
					}
					width, sumKL, sumLo, sumHi := 0.0, 0.0, 0.0, 0.0
					for i := range baseRows {
						kl := exactKL(baseRows[i], modelRows[i])
						lo, hi := dv.KLDLow[i], dv.KLDHigh[i]
						if kl < lo-tol || kl > hi+tol {
							t.Errorf("threads %d, n_batch %d, %s k=%d position %d: exact KLD %.6g outside [%.6g, %.6g]",
								threads, nBatch, ft, k, i, kl, lo, hi)
						}
						if k >= 512 && math.Abs(hi-lo) > tol {
							t.Errorf("threads %d, n_batch %d, %s k=%d position %d: full vocabulary but bounds [%g, %g]",
								threads, nBatch, ft, k, i, lo, hi)
						}
						width = math.Max(width, hi-lo)
						sumKL, sumLo, sumHi = sumKL+kl, sumLo+lo, sumHi+hi
					}
					n := float64(len(baseRows))
					t.Logf("threads %d, n_batch %d, %s k=%d: mean KLD exact %.6g, estimate %.6g, upper bound %.3g; widest interval %.3g",
						threads, nBatch, ft, k, sumKL/n, sumLo/n, sumHi/n, width)
				}
			}
		}
	}
}

func TestCompareBaseWithItself(t *testing.T) {
	m := load(t, storiesPath(t), distOpts())
	reqs := storiesRequests(t, m, 40)
	d, err := m.TopK(context.Background(), reqs, 32, nil)
	if err != nil {
		t.Fatal(err)
	}
	dv, err := m.Compare(context.Background(), reqs, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range dv.KLDLow {
		if dv.KLDLow[i] > 1e-12 {
			t.Errorf("position %d: KLD(base, base) = %g", i, dv.KLDLow[i])
		}
		if dv.Argmax[i] != d.Argmax[i] || dv.LogProb[i] != d.LogProb[i] {
			t.Errorf("position %d: argmax %d/%d, log p %v/%v", i, dv.Argmax[i], d.Argmax[i], dv.LogProb[i], d.LogProb[i])
		}
	}
}

// The tail bounds, checked against brute force: random feasible tail
// distributions never leave [lo, hi], the lower bound is reached by p
// proportional to q, and the upper bound by the vertex described.
func TestKLDTailBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := func(p, lq []float64) float64 {
		s := 0.0
		for i := range p {
			if p[i] > 0 {
				s += p[i] * (math.Log(p[i]) - lq[i])
			}
		}
		return s
	}
	capped := 0
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(12)
		lq := make([]float64, n)
		for i := range lq {
			lq[i] = -1 - 8*rng.Float64()
		}
		capv := 0.01 + 0.2*rng.Float64()
		pt := capv * (0.2 + float64(n-1)*rng.Float64()) // feasible: pt <= n*cap
		lo, hi := KLDTailBounds(math.Log(pt), math.Log(capv), slices.Clone(lq))
		// Lower bound: the water-filled point p_i = min(cap, c q_i), built
		// independently by capScale; never below the log-sum bound, equal
		// to it when nothing is capped.
		qt := 0.0
		q := make([]float64, n)
		for i, v := range lq {
			q[i] = math.Exp(v)
			qt += q[i]
		}
		wf := capScale(slices.Clone(q), pt, capv)
		if want := f(wf, lq); math.Abs(lo-want) > 1e-12 {
			t.Fatalf("trial %d: lo %v, water-filled point gives %v", trial, lo, want)
		}
		logSum := pt * math.Log(pt/qt)
		if lo < logSum-1e-12 || (slices.Max(wf) < capv && math.Abs(lo-logSum) > 1e-12) {
			t.Fatalf("trial %d: lo %v, log-sum bound %v", trial, lo, logSum)
		}
		if slices.Max(wf) >= capv {
			capped++
		}
		// Upper bound: the vertex, built independently by sorting.
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return int(math.Copysign(1, lq[a]-lq[b])) })
		v := make([]float64, n)
		left := pt
		for _, i := range order {
			v[i] = math.Min(capv, left)
			left -= v[i]
		}
		if want := f(v, lq); math.Abs(hi-want) > 1e-9 {
			t.Fatalf("trial %d: hi %v, vertex gives %v", trial, hi, want)
		}
		// Random feasible points: Dirichlet-like, rescaled, capped by
		// water-filling, stay inside.
		for s := 0; s < 50; s++ {
			p := make([]float64, n)
			for i := range p {
				p[i] = rng.ExpFloat64()
			}
			p = capScale(p, pt, capv)
			if p == nil {
				continue
			}
			if val := f(p, lq); val < lo-1e-12 || val > hi+1e-12 {
				t.Fatalf("trial %d: feasible point gives %v outside [%v, %v]", trial, val, lo, hi)
			}
		}
	}
	if capped < 20 {
		t.Errorf("only %d of 200 cases reach the cap: the water-filling branch is barely tested", capped)
	}
	if lo, hi := KLDTailBounds(math.Inf(-1), -1, []float64{-1, -2}); lo != 0 || hi != 0 {
		t.Errorf("empty tail mass: [%v, %v]", lo, hi)
	}
}

// capScale rescales p to sum to total with every entry at most capv,
// moving the excess of capped entries onto the others.
func capScale(p []float64, total, capv float64) []float64 {
	fixed := make([]bool, len(p))
	for iter := 0; iter < len(p); iter++ {
		free, rest := 0.0, total
		for i := range p {
			if fixed[i] {
				rest -= capv
			} else {
				free += p[i]
			}
		}
		if free == 0 {
			return nil
		}
		changed := false
		for i := range p {
			if !fixed[i] {
				p[i] *= rest / free
				if p[i] > capv {
					p[i], fixed[i], changed = capv, true, true
				}
			}
		}
		if !changed {
			return p
		}
	}
	return nil
}

func TestQuantizeRefusedLeavesNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "q8.gguf")
	err := Quantize(storiesPath(t), out, QuantizeOptions{FileType: "Q8_0", Threads: 1})
	if !errors.Is(err, ErrQuantizeRefused) {
		t.Fatalf("stories260K (n_ff 172) to Q8_0: err %v, want ErrQuantizeRefused", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused quantization left %s", out)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("refused quantization left files: %v", entries)
	}
	if err := Quantize(storiesPath(t), out, QuantizeOptions{FileType: "Q9_9"}); err == nil || !strings.Contains(err.Error(), "unknown file type") {
		t.Errorf("unknown file type: err %v", err)
	}
}

func TestQuantizeBlockTypes(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "f32.gguf")
	if err := ggufwrite.WriteLlama(in, ggufwrite.LlamaSpec{NEmbd: 256, NFF: 512, NLayer: 1, NHead: 4, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	for _, ft := range []string{"Q8_0", "Q4_0", "Q4_K_M"} {
		out := filepath.Join(dir, ft+".gguf")
		if err := Quantize(in, out, QuantizeOptions{FileType: ft, Threads: 1}); err != nil {
			t.Fatalf("%s: %v", ft, err)
		}
		gf, err := gguf.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := gf.Facts().FileType; got != ft {
			t.Errorf("quantized to %s, file says %s", ft, got)
		}
	}
}

func TestLoadImatrixDat(t *testing.T) {
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	w(int32(2))
	for _, e := range []struct {
		name  string
		ncall int32
		vals  []float32
	}{{"blk.0.ffn_up.weight", 4, []float32{4, 8, 2}}, {"output.weight", 0, []float32{1.5}}} {
		w(int32(len(e.name)))
		b.WriteString(e.name)
		w(e.ncall)
		w(int32(len(e.vals)))
		w(e.vals)
	}
	path := filepath.Join(t.TempDir(), "imatrix.dat")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadImatrix(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["blk.0.ffn_up.weight"], []float32{1, 2, 0.5}) || !slices.Equal(got["output.weight"], []float32{1.5}) {
		t.Errorf("imatrix %v", got)
	}
	if err := os.WriteFile(path, b.Bytes()[:20], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadImatrix(path); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated imatrix: err %v", err)
	}
}

// An importance matrix in llama-imatrix's GGUF format (NAME.in_sum2,
// NAME.counts) is read as in_sum2/counts, and lets llama.cpp make a
// quantization it refuses without one (IQ2_XXS).
func TestQuantizeWithImatrixGGUF(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "f32.gguf")
	spec := ggufwrite.LlamaSpec{NEmbd: 256, NFF: 512, NLayer: 1, NHead: 4, Seed: 9}
	if err := ggufwrite.WriteLlama(in, spec); err != nil {
		t.Fatal(err)
	}
	src, err := gguf.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	im := ggufwrite.New()
	im.SetKV("general.type", "imatrix")
	want := map[string][]float32{}
	for _, ti := range src.Tensors {
		if len(ti.Shape) != 2 {
			continue
		}
		n := int(ti.Shape[0])
		sums := make([]float32, n)
		for i := range sums {
			sums[i] = float32(3 * (1 + i%5))
		}
		im.AddTensor(ti.Name+".in_sum2", gguf.F32, []uint64{uint64(n), 1}, f32Bytes(sums))
		im.AddTensor(ti.Name+".counts", gguf.F32, []uint64{1, 1}, f32Bytes([]float32{3}))
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(1 + i%5)
		}
		want[ti.Name] = w
	}
	imPath := filepath.Join(dir, "imatrix.gguf")
	if err := im.WriteFile(imPath); err != nil {
		t.Fatal(err)
	}
	got, err := LoadImatrix(imPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("imatrix has %d entries, want %d", len(got), len(want))
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %v..., want %v...", name, got[name][:5], w[:5])
		}
	}
	out := filepath.Join(dir, "iq2.gguf")
	if err := Quantize(in, out, QuantizeOptions{FileType: "IQ2_XXS", Threads: 1}); !errors.Is(err, ErrQuantizeRefused) {
		t.Fatalf("IQ2_XXS without an importance matrix: err %v, want refused", err)
	}
	if err := Quantize(in, out, QuantizeOptions{FileType: "IQ2_XXS", Threads: 1, Imatrix: got}); err != nil {
		t.Fatalf("IQ2_XXS with an importance matrix: %v", err)
	}
	m := load(t, out, Options{NCtx: 64})
	if ft := m.Facts().FileType; ft != "IQ2_XXS" {
		t.Errorf("file type %s", ft)
	}
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// BenchmarkTopK measures decoding plus the per-row summaries (stories260K:
// the decode dominates; the summary work grows with the vocabulary).
func BenchmarkTopK(b *testing.B) {
	m := load(b, storiesPath(b), Options{NCtx: 256, NBatch: 256, NUBatch: 256})
	toks, err := m.Tokenize(strings.Repeat(distText+" ", 8), true, false)
	if err != nil {
		b.Fatal(err)
	}
	reqs, err := PerplexityRequests(toks, 128, m.Settings().BOS)
	if err != nil {
		b.Fatal(err)
	}
	base, err := m.TopK(context.Background(), reqs, 32, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("TopK", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := m.TopK(context.Background(), reqs, 32, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(Positions(reqs)*b.N)/b.Elapsed().Seconds(), "positions/s")
	})
	b.Run("Compare", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := m.Compare(context.Background(), reqs, base, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(Positions(reqs)*b.N)/b.Elapsed().Seconds(), "positions/s")
	})
}
