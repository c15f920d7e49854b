package engine

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// mcRequests makes n multiple-choice style requests: groups of four
// continuations sharing one context, contexts of different lengths.
func mcRequests(n int) []LoglikelihoodRequest {
	subjects := []string{"Lily", "Tom", "The little dog", "Mom", "The big bird", "Ben and Sue", "A cat", "The girl"}
	places := []string{"the park", "the garden", "the house", "the sea", "the tree", "school", "the shop", "the farm"}
	endings := []string{" She was happy.", " He was sad.", " They ran home.", " It started to rain."}
	var reqs []LoglikelihoodRequest
	for i := 0; len(reqs) < n; i++ {
		ctx := fmt.Sprintf("Once upon a time, %s went to %s.", subjects[i%len(subjects)], places[(i/2)%len(places)])
		for k := 0; k < i%5; k++ {
			ctx += fmt.Sprintf(" %s saw %s.", subjects[(i+k)%len(subjects)], places[(i+k+3)%len(places)])
		}
		for _, e := range endings {
			if len(reqs) < n {
				reqs = append(reqs, LoglikelihoodRequest{Context: ctx, Continuation: e})
			}
		}
	}
	return reqs
}

// TestBatchingInvariance checks that packing requests into shared batches,
// with or without shared prefixes, changes no answer: exact attention (f32
// KV cache) within 1e-4, also with n_batch 64 so that sequences are split
// across llama_decode calls; llama.cpp's default f16 attention within 2e-2
// (its f16 kernels depend on the batch layout by ~1e-3).
func TestBatchingInvariance(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		nbatch []int
		tol    float64
	}{
		{"f32-kv", Options{TypeK: "f32", TypeV: "f32"}, []int{0, 64}, 1e-4},
		{"f16-kv-default", Options{}, []int{0}, 2e-2},
	} {
		t.Run(tc.name, func(t *testing.T) { testBatchingInvariance(t, tc.opts, tc.nbatch, tc.tol) })
	}
}

func testBatchingInvariance(t *testing.T, opts Options, nbatch []int, tol float64) {
	path := storiesPath(t)
	reqs := mcRequests(64)
	ctx := context.Background()

	m := load(t, path, opts)
	alone := make([]LoglikelihoodResult, len(reqs))
	margin := make([]float64, len(reqs))
	for i, r := range reqs {
		res, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{r})
		if err != nil {
			t.Fatal(err)
		}
		alone[i] = res[0]
		c, k, err := m.EncodePair(r.Context, r.Continuation)
		if err != nil {
			t.Fatal(err)
		}
		_, _, margin[i] = refScoreMargin(t, m, c, k)
	}
	for _, nb := range nbatch {
		for _, share := range []bool{true, false} {
			o := opts
			o.NBatch, o.NoPrefixSharing = nb, !share
			bm := load(t, path, o)
			got, err := bm.Loglikelihood(ctx, reqs)
			if err != nil {
				t.Fatal(err)
			}
			st := bm.Stats()
			name := fmt.Sprintf("n_batch %d, prefix sharing %v", bm.Settings().NBatch, share)
			worst := 0.0
			for i := range reqs {
				d := math.Abs(got[i].LogProb - alone[i].LogProb)
				worst = math.Max(worst, d)
				// is_greedy may flip only where a continuation token is
				// within the tolerance of the best other token.
				greedyOK := got[i].IsGreedy == alone[i].IsGreedy || margin[i] <= 2*tol
				if d > tol || !greedyOK || got[i].NumTokens != alone[i].NumTokens {
					t.Errorf("request %d, %s: %+v, alone: %+v", i, name, got[i], alone[i])
				}
			}
			// The batch must really be packed, and shared prefixes decoded
			// once: far fewer decode calls than requests, and with sharing
			// fewer than half the requested tokens decoded.
			if nb == 0 && st.Decodes >= int64(len(reqs))/4 {
				t.Errorf("%s: %d llama_decode calls for %d requests: not batched", name, st.Decodes, len(reqs))
			}
			if share && st.TokensDecoded*2 > st.TokensRequested {
				t.Errorf("%s: decoded %d of %d requested tokens", name, st.TokensDecoded, st.TokensRequested)
			}
			if !share && st.TokensDecoded != st.TokensRequested {
				t.Errorf("%s: decoded %d tokens, requested %d", name, st.TokensDecoded, st.TokensRequested)
			}
			t.Logf("%s: %d decodes, %d tokens decoded of %d requested; largest difference %.2g", name, st.Decodes, st.TokensDecoded, st.TokensRequested, worst)
		}
	}
}

// TestBatchedGenerationInvariance checks that greedy generation gives the
// same text alone and batched.
func TestBatchedGenerationInvariance(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	ctx := context.Background()
	var reqs []GenerateRequest
	for i, r := range mcRequests(40) {
		if i%4 == 0 {
			reqs = append(reqs, GenerateRequest{Context: r.Context, MaxGenToks: 12 + i%7, Until: []string{"\n"}})
		}
	}
	reqs = append(reqs, GenerateRequest{Context: "Once upon a time", MaxGenToks: 40, Until: []string{"park"}})
	batched, err := m.GenerateUntil(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		alone, err := m.GenerateUntil(ctx, []GenerateRequest{r})
		if err != nil {
			t.Fatal(err)
		}
		if alone[0] != batched[i] {
			t.Errorf("request %d: batched %q, alone %q", i, batched[i], alone[0])
		}
	}
	if last := batched[len(batched)-1]; last != ", there was a little girl named Lily. She loved to play outside in the " {
		t.Errorf("until \"park\": got %q", last)
	}
}

// TestRawGenerateWaves checks that the raw generation baseline runs
// sequences that do not fit a fixed cache together in waves, decoding
// every prompt token and every step once.
func TestRawGenerateWaves(t *testing.T) {
	m := load(t, storiesPath(t), Options{NCtx: 512, NSeqMax: 8, Threads: 2})
	prompts := make([][]int32, 8)
	for i := range prompts {
		prompts[i] = make([]int32, 100)
		for j := range prompts[i] {
			prompts[i][j] = int32(1 + (i*100+j)%400)
		}
	}
	const steps = 10
	n, _, err := m.RawGenerate(context.Background(), prompts, steps)
	if err != nil {
		t.Fatal(err)
	}
	if want := 8*100 + 8*steps; n != want {
		t.Errorf("decoded %d tokens, want %d", n, want)
	}
	if _, _, err := m.RawGenerate(context.Background(), [][]int32{make([]int32, 600)}, steps); err == nil {
		t.Error("a prompt wider than n_ctx was accepted")
	}
}
