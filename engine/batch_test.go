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
// KV cache) within 1e-4, with several batch sizes so that sequences are
// split across llama_decode calls; llama.cpp's default f16 attention within
// 2e-2 (its f16 kernels depend on the batch layout by ~1e-3).
func TestBatchingInvariance(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		tol  float64
	}{
		{"f32-kv", Options{TypeK: "f32", TypeV: "f32"}, 1e-4},
		{"f32-kv-nbatch-64", Options{TypeK: "f32", TypeV: "f32", NBatch: 64}, 1e-4},
		{"f16-kv-default", Options{}, 2e-2},
	} {
		t.Run(tc.name, func(t *testing.T) { testBatchingInvariance(t, tc.opts, tc.tol) })
	}
}

func testBatchingInvariance(t *testing.T, opts Options, tol float64) {
	path := storiesPath(t)
	reqs := mcRequests(64)
	ctx := context.Background()

	m := load(t, path, opts)
	alone := make([]LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		res, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{r})
		if err != nil {
			t.Fatal(err)
		}
		alone[i] = res[0]
	}
	before := m.Stats()
	batched, err := m.Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	after := m.Stats()
	decodes := after.Decodes - before.Decodes
	decoded := after.TokensDecoded - before.TokensDecoded
	requested := after.TokensRequested - before.TokensRequested

	nsOpts := opts
	nsOpts.NoPrefixSharing = true
	ns := load(t, path, nsOpts)
	unshared, err := ns.Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	nsStats := ns.Stats()

	worst := 0.0
	for i := range reqs {
		for _, c := range []struct {
			name string
			r    LoglikelihoodResult
		}{{"batch of 64", batched[i]}, {"no prefix sharing", unshared[i]}} {
			worst = math.Max(worst, math.Abs(c.r.LogProb-alone[i].LogProb))
			if math.Abs(c.r.LogProb-alone[i].LogProb) > tol || c.r.IsGreedy != alone[i].IsGreedy || c.r.NumTokens != alone[i].NumTokens {
				t.Errorf("request %d, %s: %+v, alone: %+v", i, c.name, c.r, alone[i])
			}
		}
	}
	// The batch must really be packed and shared: far fewer decode calls
	// than requests, and fewer tokens decoded than requested.
	if decodes >= int64(len(reqs))/4 && opts.NBatch == 0 {
		t.Errorf("%d llama_decode calls for %d requests: not batched", decodes, len(reqs))
	}
	if decoded*2 > requested {
		t.Errorf("decoded %d of %d requested tokens: shared prefixes not decoded once", decoded, requested)
	}
	if nsStats.TokensDecoded != nsStats.TokensRequested {
		t.Errorf("without sharing decoded %d tokens, requested %d", nsStats.TokensDecoded, nsStats.TokensRequested)
	}
	t.Logf("batch of %d: %d decodes, %d tokens decoded of %d requested; largest log-prob difference %.2g", len(reqs), decodes, decoded, requested, worst)
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
