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
	"time"
	"unsafe"
)

// PromptRequest asks for the log-probability of every token of Tokens
// given the tokens before it (OpenAI's completions with echo and
// logprobs): positions 0..len(Tokens)-2 predict Tokens[1:]. With Next set
// the distribution after the last token is summarised too (its top tokens
// are the greedy continuation), which decodes one more token.
type PromptRequest struct {
	Tokens []int32
	Next   bool
}

// Positions is the number of positions a PromptRequest scores.
func (r PromptRequest) Positions() int {
	n := len(r.Tokens) - 1
	if r.Next {
		n++
	}
	return max(n, 0)
}

// PromptScores answers a PromptRequest, one entry per scored position p
// (in order): LogProb[p] is log p(Tokens[p+1] | Tokens[:p+1]) (NaN at the
// Next position, which has no target), and TopIDs[p*K:(p+1)*K] with
// TopLogP the K most probable tokens at p, most probable first (ties:
// lower id first, as the argmax), padded with -1 and -Inf beyond the
// vocabulary.
type PromptScores struct {
	K       int
	LogProb []float64
	TopIDs  []int32
	TopLogP []float64
}

// ScorePrompts scores every position of each request, keeping the k most
// probable tokens per position. Requests are decoded together as
// Loglikelihood decodes them: packed many to a llama_batch, with tokens
// that requests share from their start decoded once. Scores are computed
// in double from the full logits row, as Loglikelihood's are, so summing
// a continuation's LogProb gives Loglikelihood's number for the same
// tokens, and a continuation is greedy when each token's LogProb equals
// the top log-prob at its position.
func (m *Model) ScorePrompts(ctx context.Context, reqs []PromptRequest, k int) ([]PromptScores, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if m.opts.VocabOnly {
		return nil, errors.New("engine: model loaded vocabulary-only")
	}
	if k < 1 {
		return nil, fmt.Errorf("engine: score prompts: k %d must be at least 1", k)
	}
	out := make([]PromptScores, len(reqs))
	base := make([]int, len(reqs)) // index of each request's first position
	total := 0
	var jobs []job
	for i, r := range reqs {
		for _, t := range r.Tokens {
			if t < 0 || int(t) >= m.info.NVocab {
				return nil, &RequestError{Op: "score_prompts", Index: i, Request: fmt.Sprintf("%d tokens", len(r.Tokens)),
					Err: fmt.Errorf("token %d outside the vocabulary [0,%d)", t, m.info.NVocab)}
			}
		}
		n := r.Positions()
		out[i] = PromptScores{K: k, LogProb: make([]float64, n), TopIDs: make([]int32, n*k), TopLogP: make([]float64, n*k)}
		base[i] = total
		total += n
		if n == 0 {
			continue
		}
		inp := r.Tokens[:n]
		targets := make([]int32, n)
		copy(targets, r.Tokens[1:])
		if len(inp) > m.info.NCtx {
			return nil, &RequestError{Op: "score_prompts", Index: i, Request: fmt.Sprintf("%d tokens", len(r.Tokens)),
				Err: fmt.Errorf("%d tokens to decode exceed n_ctx %d", len(inp), m.info.NCtx)}
		}
		jobs = append(jobs, job{inp: inp, targets: targets, slot: int32(i)})
	}
	lp := make([]float64, total)
	ids := make([]int32, total*k)
	lps := make([]float64, total*k)
	// The position a scored item fills: its job's first position plus the
	// node's position (every position of a job is scored).
	err := m.scanJobs(ctx, jobs, k, func(slot, pos int32) int { return base[slot] + int(pos) }, lp, ids, lps)
	if err != nil {
		return nil, fmt.Errorf("engine: score prompts: %w", err)
	}
	for i, r := range reqs {
		n := r.Positions()
		at := base[i]
		copy(out[i].LogProb, lp[at:at+n])
		copy(out[i].TopIDs, ids[at*k:(at+n)*k])
		copy(out[i].TopLogP, lps[at*k:(at+n)*k])
		if r.Next && n > 0 {
			out[i].LogProb[n-1] = nan()
		}
	}
	m.stats.Requests += len(reqs)
	return out, nil
}

func nan() float64 {
	var z float64
	return z / z
}

// scanJobs decodes jobs as runJobs does (decodeJobs, without the
// in-flight budget) and summarises each scored row with lm_dist_topk,
// writing position at(slot, pos) of lp, ids and lps (k per position).
// Items of one row with the same target (a shared prefix scored for
// several jobs) are summarised once.
func (m *Model) scanJobs(ctx context.Context, jobs []job, k int, at func(slot, pos int32) int, lp []float64, ids []int32, lps []float64) error {
	return m.decodeJobs(ctx, jobs, false, &topkStep{m: m, k: k, at: at, lp: lp, ids: ids, lps: lps}, nil)
}

// topkStep is scanJobs' step.
type topkStep struct {
	m       *Model
	k       int
	at      func(slot, pos int32) int
	lp, lps []float64
	ids     []int32
	// unique (row, target) pairs of this decode and, per scored item,
	// which pair and which position it fills
	rows, targets []int32
	itemPair      []int
	itemAt        []int
	plp           []float64
	pam           []int32
	pids          []int32
	plps          []float64
	ptail         []float64
}

func (s *topkStep) reset() {
	s.rows, s.targets, s.itemPair, s.itemAt = s.rows[:0], s.targets[:0], s.itemPair[:0], s.itemAt[:0]
}

func (s *topkStep) add(row int32, n *gnode) {
	for _, it := range n.items {
		p := len(s.rows) - 1
		if p < 0 || s.rows[p] != row || s.targets[p] != it.target {
			s.rows = append(s.rows, row)
			s.targets = append(s.targets, it.target)
			p++
		}
		s.itemPair = append(s.itemPair, p)
		s.itemAt = append(s.itemAt, s.at(it.slot, n.pos))
	}
}

func (s *topkStep) score() error {
	n := len(s.rows)
	if n == 0 {
		return nil
	}
	m, k := s.m, s.k
	t0 := time.Now()
	s.plp, s.pam = grow(s.plp, n), grow(s.pam, n)
	s.pids, s.plps, s.ptail = grow(s.pids, n*k), grow(s.plps, n*k), grow(s.ptail, n)
	rc := C.lm_dist_topk(m.c, C.int32_t(m.info.NVocab), C.int32_t(m.info.Threads), C.int32_t(n),
		(*C.int32_t)(unsafe.Pointer(&s.rows[0])), (*C.int32_t)(unsafe.Pointer(&s.targets[0])), C.int32_t(k),
		(*C.double)(unsafe.Pointer(&s.plp[0])), (*C.int32_t)(unsafe.Pointer(&s.pam[0])),
		(*C.int32_t)(unsafe.Pointer(&s.pids[0])), (*C.double)(unsafe.Pointer(&s.plps[0])),
		(*C.double)(unsafe.Pointer(&s.ptail[0])))
	m.stats.ScoreTime += time.Since(t0)
	if rc != 0 {
		return errors.New("top-k: bad logits row or target")
	}
	for j, p := range s.itemPair {
		a := s.itemAt[j]
		s.lp[a] = s.plp[p]
		copy(s.ids[a*k:(a+1)*k], s.pids[p*k:(p+1)*k])
		copy(s.lps[a*k:(a+1)*k], s.plps[p*k:(p+1)*k])
	}
	return nil
}

// grow returns s with length n, reallocating only when it is too short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
