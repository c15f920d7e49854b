package engine

/*
#if !__has_include("quantdist.h")
#error "lmeval: the native engine's cgo flags are not set: build and test with 'make' / 'make test', or run eval \"$(make -s env)\" first (see docs/build.md)"
#endif
#include "quantdist.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"unsafe"
)

// DistRequest is one token sequence whose next-token distributions are
// wanted: Input is decoded as one sequence, and position
// len(Input)-len(Targets)+i is scored against Targets[i].
type DistRequest struct {
	Input, Targets []int32
}

// Positions returns the number of scored positions of the requests.
func Positions(reqs []DistRequest) int {
	n := 0
	for _, r := range reqs {
		n += len(r.Targets)
	}
	return n
}

// Dists are compact summaries of next-token distributions, one per scored
// position in request order: the exact log-probability of the actual next
// token, the argmax, the K most probable tokens with their log-probs and
// the log of the probability left to all other tokens. They are what a
// sweep stores of its base model instead of full-vocabulary rows.
type Dists struct {
	K        int
	LogProb  []float64 // log p(target), from the full row in double
	Argmax   []int32
	TopIDs   []int32   // K per position, most probable first; -1 pads
	TopLogP  []float64 // K per position; -Inf pads
	TailLogP []float64 // log of the mass outside the top K; -Inf when none
}

// Len is the number of positions.
func (d *Dists) Len() int { return len(d.LogProb) }

// Divergence is a model's next-token statistics against base Dists, one
// entry per position.
type Divergence struct {
	LogProb []float64 // the model's log p(target)
	Argmax  []int32
	// KLD bounds KL(base || model) at each position: the part over the
	// base's top K is exact; the rest lies between the bounds of
	// docs/sweep.md. KLDLow is also the estimate (exact when the base's
	// tail is proportional to the model's and below the cap).
	KLDLow, KLDHigh []float64
}

// PerplexityRequests lays tokens out as llama.cpp's perplexity tool does
// (see Perplexity): whole chunks of chunkSize tokens, each chunk's first
// token replaced by bos when bos >= 0, the second half of each chunk
// scored. A trailing partial chunk is dropped.
func PerplexityRequests(tokens []int32, chunkSize int, bos int32) ([]DistRequest, error) {
	if chunkSize < 4 {
		return nil, fmt.Errorf("perplexity chunks: chunk size %d is below 4", chunkSize)
	}
	n := len(tokens) / chunkSize
	if n < 1 {
		return nil, fmt.Errorf("perplexity chunks: %d tokens do not fill one chunk of %d", len(tokens), chunkSize)
	}
	first := chunkSize / 2
	reqs := make([]DistRequest, n)
	for c := range reqs {
		chunk := append([]int32(nil), tokens[c*chunkSize:(c+1)*chunkSize]...)
		if bos >= 0 {
			chunk[0] = bos
		}
		reqs[c] = DistRequest{Input: chunk[:chunkSize-1], Targets: chunk[first+1:]}
	}
	return reqs, nil
}

// TopK summarises the next-token distribution at every scored position
// of reqs, keeping the k most probable tokens. progress, when not nil, is
// called with the positions done after each decode.
func (m *Model) TopK(ctx context.Context, reqs []DistRequest, k int, progress func(positions, tokens int)) (*Dists, error) {
	if k < 1 {
		return nil, fmt.Errorf("engine: top-k: k %d must be at least 1", k)
	}
	total := Positions(reqs)
	d := &Dists{
		K: k, LogProb: make([]float64, total), Argmax: make([]int32, total),
		TopIDs: make([]int32, total*k), TopLogP: make([]float64, total*k), TailLogP: make([]float64, total),
	}
	err := m.scanRows(ctx, reqs, progress, func(rows, targets []int32, at int) error {
		n := len(rows)
		rc := C.lm_dist_topk(m.c, C.int32_t(m.info.NVocab), C.int32_t(m.info.Threads), C.int32_t(n),
			(*C.int32_t)(unsafe.Pointer(&rows[0])), (*C.int32_t)(unsafe.Pointer(&targets[0])), C.int32_t(k),
			(*C.double)(unsafe.Pointer(&d.LogProb[at])), (*C.int32_t)(unsafe.Pointer(&d.Argmax[at])),
			(*C.int32_t)(unsafe.Pointer(&d.TopIDs[at*k])), (*C.double)(unsafe.Pointer(&d.TopLogP[at*k])),
			(*C.double)(unsafe.Pointer(&d.TailLogP[at])))
		if rc != 0 {
			return errors.New("top-k: bad logits row or target")
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("engine: top-k: %w", err)
	}
	return d, nil
}

// Compare computes the model's statistics at every scored position of
// reqs against base, which must come from the same requests.
func (m *Model) Compare(ctx context.Context, reqs []DistRequest, base *Dists, progress func(positions, tokens int)) (*Divergence, error) {
	total := Positions(reqs)
	if base == nil || base.Len() != total || len(base.TopIDs) != total*base.K || len(base.TailLogP) != total {
		return nil, fmt.Errorf("engine: compare: the base distributions do not match the %d positions requested", total)
	}
	k := base.K
	for _, id := range base.TopIDs {
		if id >= int32(m.info.NVocab) {
			return nil, fmt.Errorf("engine: compare: base token %d outside the model's vocabulary of %d", id, m.info.NVocab)
		}
	}
	dv := &Divergence{
		LogProb: make([]float64, total), Argmax: make([]int32, total),
		KLDLow: make([]float64, total), KLDHigh: make([]float64, total),
	}
	err := m.scanRows(ctx, reqs, progress, func(rows, targets []int32, at int) error {
		n := len(rows)
		rc := C.lm_dist_compare(m.c, C.int32_t(m.info.NVocab), C.int32_t(m.info.Threads), C.int32_t(n),
			(*C.int32_t)(unsafe.Pointer(&rows[0])), (*C.int32_t)(unsafe.Pointer(&targets[0])), C.int32_t(k),
			(*C.int32_t)(unsafe.Pointer(&base.TopIDs[at*k])), (*C.double)(unsafe.Pointer(&base.TopLogP[at*k])),
			(*C.double)(unsafe.Pointer(&base.TailLogP[at])),
			(*C.double)(unsafe.Pointer(&dv.LogProb[at])), (*C.int32_t)(unsafe.Pointer(&dv.Argmax[at])),
			(*C.double)(unsafe.Pointer(&dv.KLDLow[at])), (*C.double)(unsafe.Pointer(&dv.KLDHigh[at])))
		if rc != 0 {
			return errors.New("compare: bad logits row or target")
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("engine: compare: %w", err)
	}
	return dv, nil
}

// KLDTailBounds bounds the part of KL(P || Q) over a set of tokens T of
// which P is known only through its total log mass logPT and a cap: every
// p_i (i in T) is at most exp(logCap). logQ are the log q_i of the tokens
// of T (Q known exactly). It returns the tightest bounds that knowledge
// allows, the minimum and maximum of the convex sum p_i log(p_i/q_i) over
// that polytope: lo at p_i = min(cap, c q_i) (equal to the log-sum bound
// P_T log(P_T/Q_T) when no p_i reaches the cap), hi at the vertex that
// puts the cap on the smallest q_i. logQ is reordered.
func KLDTailBounds(logPT, logCap float64, logQ []float64) (lo, hi float64) {
	if len(logQ) == 0 {
		return 0, 0
	}
	var clo, chi C.double
	C.lm_kld_tail_bounds(C.double(logPT), C.double(logCap), (*C.double)(unsafe.Pointer(&logQ[0])), C.int32_t(len(logQ)), &clo, &chi)
	return float64(clo), float64(chi)
}

// scanRows decodes the requests, several sequences per llama_batch where
// they fit, and hands fn the batch rows of scored positions with their
// targets, at is the index of the first of them among all positions.
func (m *Model) scanRows(ctx context.Context, reqs []DistRequest, progress func(int, int), fn func(rows, targets []int32, at int) error) error {
	if err := m.lock(); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.opts.VocabOnly {
		return errors.New("model loaded vocabulary-only")
	}
	starts := make([]int, len(reqs)) // index of each request's first position
	at, longest := 0, 0
	for i, r := range reqs {
		if len(r.Input) == 0 || len(r.Targets) == 0 || len(r.Targets) > len(r.Input) {
			return fmt.Errorf("request %d: %d input tokens cannot score %d targets", i, len(r.Input), len(r.Targets))
		}
		if len(r.Input) > m.maxCells() {
			return fmt.Errorf("request %d: %d tokens exceed n_ctx %d", i, len(r.Input), m.maxCells())
		}
		longest = max(longest, len(r.Input))
		starts[i] = at
		at += len(r.Targets)
	}
	if err := m.reserve(longest, min(m.inflight(), m.maxCells()), scoringOf(longest, m.info.NUBatch)); err != nil {
		return err
	}
	nCtx, nBatch, nSeq := m.info.NCtx, m.info.NBatch, m.info.NSeqMax
	cMemClear(m.c)
	defer cMemClear(m.c)
	var (
		b              batch
		rows, targets  []int32
		firstAt        = -1
		done, doneToks int
	)
	flush := func() error {
		if b.len() == 0 {
			return nil
		}
		if err := m.decode(&b); err != nil {
			return err
		}
		if len(rows) > 0 {
			if err := fn(rows, targets, firstAt); err != nil {
				return err
			}
		}
		done += len(rows)
		doneToks += b.len()
		if progress != nil {
			progress(done, doneToks)
		}
		b.reset()
		rows, targets, firstAt = rows[:0], targets[:0], -1
		return nil
	}
	b.reset()
	// Requests go in groups that fit the cache and the sequence limit;
	// each group starts from an empty cache. A request may span several
	// batches: its earlier tokens are in the cache by then.
	for i := 0; i < len(reqs); {
		if err := ctx.Err(); err != nil {
			return err
		}
		j, used := i, 0
		for j < len(reqs) && j-i < nSeq && used+len(reqs[j].Input) <= nCtx {
			used += len(reqs[j].Input)
			j++
		}
		for r := i; r < j; r++ {
			req := reqs[r]
			seq := []int32{int32(r - i)}
			scoreFrom := len(req.Input) - len(req.Targets)
			for p, tok := range req.Input {
				want := p >= scoreFrom
				// Positions must reach fn in order and contiguously, so a
				// batch holds positions starting at firstAt without gaps.
				if b.len() == nBatch {
					if err := flush(); err != nil {
						return err
					}
				}
				row := b.add(tok, int32(p), seq, want)
				if want {
					if firstAt < 0 {
						firstAt = starts[r] + p - scoreFrom
					}
					rows = append(rows, row)
					targets = append(targets, req.Targets[p-scoreFrom])
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		cMemClear(m.c)
		i = j
	}
	return nil
}
